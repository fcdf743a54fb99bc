import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PATIENT_STATE } from "./helpers";

test.use({ storageState: PATIENT_STATE });
// An axe pass per screen (and here a wait for the list to read itself again): room for a loaded machine.
test.describe.configure({ timeout: 90_000 });

test("the patient switches language and the screens follow", async ({ page }) => {
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
  // Back to English for the other specs of this browser.
  await page.goto("/home");
  await page.getByLabel("Language").selectOption("english");
  await expect(page.getByRole("heading", { name: "Pending actions" })).toBeVisible();
});
