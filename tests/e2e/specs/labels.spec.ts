import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PATIENT_STATE } from "./helpers";

test.use({ storageState: PATIENT_STATE });
// An axe pass per screen (and here a wait for the list to read itself again): room for a loaded machine.
test.describe.configure({ timeout: 90_000 });

test("the patient switches language and the screens follow", async ({ page }) => {
  try {
    await page.goto("/home");
    await expect(page.getByRole("heading", { name: "Pending actions" })).toBeVisible();
    await page.getByLabel("Language").selectOption("spanish");
    await expect(page.getByRole("heading", { name: "Acciones pendientes" })).toBeVisible();
    await expect(page.getByText("encuesta pendiente").first()).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto("/medical-history/assigned");
    await expect(page.getByRole("link", { name: /Asignadas/ })).toBeVisible();
    await page.goto("/documents/all");
    await expect(page.getByRole("link", { name: /Todas las cartas/ })).toBeVisible();
    await expectNoAxeViolations(page);
    // Back to English the way she chose Spanish: the picker is labelled in Spanish now.
    await page.goto("/home");
    await page.getByLabel("Idioma").selectOption("english");
    await expect(page.getByRole("heading", { name: "Pending actions" })).toBeVisible();
  } finally {
    // Jane's preference is her account's, so the other specs signed in as Jane would see Spanish
    // if this test stopped half way: put it back whatever happened.
    const csrf = (await page.context().cookies()).find((c) => c.name === "portal_csrf")?.value ?? "";
    const reset = await page.request.put("/api/account/language", { headers: { "X-CSRF-Token": csrf }, data: { Language: "english" } });
    expect(reset.status()).toBe(200);
  }
});
