import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { SCREENSHOTS, signIn } from "./helpers";

// Issue 21: a notice template's text per language on the Notification Templates page. A new,
// inactive Ready for exam template (never sent, so other specs' mail is untouched) starts with the
// shipped Vietnamese text (Source Shipped); the Vietnamese text is checked by wasm-core's rule
// (the English template's tokens kept), saved, and read back with Source Clinic; a save over a
// newer one gets the stale message and the editor reloads it.
test.describe.configure({ timeout: 180_000 });

const PAGE = "/admin/patient-result-portal-settings/email-service";
const STALE = "This template was changed by someone else since you opened it. Reload it to see the changes.";

async function axeClean(page: Page) {
  // The preview frame is sandboxed (no script): axe checks the page around it.
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .exclude('iframe[title="Email preview"]')
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("a Vietnamese template text: shipped first, token check, saved and read back with Source Clinic, 409 reloads", async ({ page }) => {
  await signIn(page, "staff", "clientadmin");
  await page.goto(PAGE);
  const name = `Vietnamese check ${Date.now()}`;
  await page.getByRole("button", { name: "Add Template" }).click();
  const add = page.getByRole("dialog", { name: "Add Template" });
  await expect(add.getByLabel("Language")).toHaveCount(0);
  await add.getByLabel("Name").fill(name);
  await add.getByLabel("Type").selectOption("ReadyForExam");
  await add.getByLabel("Is Active").uncheck();
  await add.getByLabel("Subject").fill("We are ready for you, {PatientFirstName}");
  await add.getByRole("textbox", { name: "Body" }).click();
  await page.keyboard.type("Please come to the front desk of {ClientName}.");
  await add.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Template saved.")).toBeVisible();

  const row = page.getByRole("table", { name: "Portal Email Templates" }).getByRole("row", { name: new RegExp(name) });
  const id = Number(await row.getByRole("cell").first().textContent());
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const modal = page.getByRole("dialog", { name: "Edit Template" });
  await expect(modal.getByLabel("Language")).toHaveValue("en");
  await expect(modal.getByLabel("Name")).toHaveValue(name);
  await modal.getByLabel("Language").selectOption("vi");
  const translation = modal.getByRole("form", { name: "Translation" });
  await expect(translation.locator(".template-source")).toContainText("Shipped: the portal's translation");
  const subject = translation.getByLabel("Subject");
  await expect(subject).not.toHaveValue("");
  await axeClean(page);
  for (const [width, height] of [[1280, 900], [820, 1180], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SCREENSHOTS}/notice-template-language-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // wasm-core's validate_translation: the English tokens must stay.
  const save = modal.getByRole("button", { name: "Save" });
  await subject.fill("Chúng tôi đã sẵn sàng");
  const body = translation.getByRole("textbox", { name: "Body" });
  await body.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Vui lòng đến quầy tiếp tân của {ClientName}.");
  await expect(translation.getByText("The translation must keep the tokens {PatientFirstName}")).toBeVisible();
  await expect(save).toBeDisabled();
  await subject.fill("Chúng tôi đã sẵn sàng đón {PatientFirstName}");
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText("Translation saved.")).toBeVisible();
  await expect(translation.locator(".template-source")).toContainText("Clinic: the clinic's own text");
  await modal.getByRole("button", { name: "Cancel" }).click();

  // Read back: a new editor, Vietnamese, Source Clinic.
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  await modal.getByLabel("Language").selectOption("vi");
  await expect(translation.locator(".template-source")).toContainText("Clinic: the clinic's own text");
  await expect(translation.getByLabel("Subject")).toHaveValue("Chúng tôi đã sẵn sàng đón {PatientFirstName}");
  await expect(translation.getByRole("textbox", { name: "Body" })).toContainText("Vui lòng đến quầy tiếp tân của {ClientName}.");

  // Someone else saves the Vietnamese text meanwhile: this editor's save gets the stale message
  // and shows the newer text.
  const csrf = (await page.context().cookies()).find((c) => c.name === "portal_csrf")!.value;
  const current = await (await page.request.get(`/api/notificationTemplate/language?Type=Portal&Id=${id}&Location=0&Language=vi`)).json();
  const other = await page.request.post("/api/notificationTemplate/language", {
    data: { ...current, Subject: "Mời {PatientFirstName} đến" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(other.status()).toBe(200);
  await translation.getByLabel("Subject").fill("Chúng tôi chờ {PatientFirstName}");
  await save.click();
  await expect(page.getByText(STALE)).toBeVisible();
  await expect(translation.getByLabel("Subject")).toHaveValue("Mời {PatientFirstName} đến");
  await modal.getByRole("button", { name: "Cancel" }).click();

  // English is still the template itself; the test template goes (with its translations).
  await row.getByRole("button", { name: `Edit ${name}` }).click();
  await expect(modal.getByLabel("Subject")).toHaveValue("We are ready for you, {PatientFirstName}");
  await modal.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Template deleted.")).toBeVisible();
});
