import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { SCREENSHOTS, signIn } from "./helpers";

// Notification Templates (spec 03 §2 email-service, §5 "Email templates"): the two lists, the
// imaging-system edit modal (Subject and Content required, Id and Location read-only, unknown
// tokens named, Save disabled while invalid), the token help modal, the preview with the demo
// patient, and adding, editing and deleting a portal template. The Recall template is the one
// edited here: the portal never sends it itself, so other specs' mail is untouched.
test.describe.configure({ mode: "serial" });
// Rich editors, axe runs and screenshots at three widths: more than the default 30 s on a busy machine.
test.setTimeout(180_000);

const PAGE = "/admin/patient-result-portal-settings/email-service";

async function axeClean(page: Page) {
  // The preview frame holds the email as the template writes it (sandboxed, no script: axe cannot
  // run inside it and would wait for ever); the page around it is checked.
  const axe = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .exclude('iframe[title="Email preview"]')
    .analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("imaging-system template: read-only ids, required fields, unknown token, token help, preview, save", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto(PAGE);
  const letters = page.getByRole("table", { name: "Imaging System Email Templates" });
  for (const header of ["Email ID", "Type", "Location", "Edit"]) await expect(letters.getByRole("columnheader", { name: header })).toBeVisible();
  await expect(letters.getByRole("row")).toHaveCount(12);
  const portal = page.getByRole("table", { name: "Portal Email Templates" });
  for (const header of ["Template ID", "Name", "Is Active", "Type", "Edit"]) await expect(portal.getByRole("columnheader", { name: header })).toBeVisible();
  await axeClean(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/notification-templates-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await letters.getByRole("button", { name: "Edit Recall email" }).click();
  const modal = page.getByRole("dialog", { name: "Edit Email Template" });
  await expect(modal.getByLabel("Email ID")).toHaveValue("4");
  await expect(modal.getByLabel("Email ID")).toHaveAttribute("readonly", "");
  await expect(modal.getByLabel("Location")).toHaveValue("All locations");
  await expect(modal.getByLabel("Location")).toHaveAttribute("readonly", "");
  const subject = modal.getByLabel("Subject");
  const save = modal.getByRole("button", { name: "Save" });
  await subject.fill("");
  await expect(modal.getByText("Subject is required")).toBeVisible();
  await expect(save).toBeDisabled();
  await subject.fill("Time for your exam, {Nickname}");
  await expect(modal.getByText("Unknown token {Nickname}")).toBeVisible();
  await expect(save).toBeDisabled();
  await subject.fill("Time for your exam, {PatientFirstName}");
  await expect(save).toBeEnabled();
  const editor = modal.getByRole("textbox", { name: "Content" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("Dear {PatientName}, please call {ClientName}.");
  for (const tool of ["Bold", "Italic", "Strike", "Link", "Image", "Blockquote"]) {
    await expect(modal.getByRole("button", { name: tool, exact: false }).first()).toBeVisible();
  }

  await modal.getByRole("button", { name: "Tokens" }).click();
  const help = page.getByRole("dialog", { name: "Email Tokens" });
  for (const group of ["General", "Patient", "Study", "History Portal", "Email Service"]) {
    await expect(help.getByRole("heading", { name: group })).toBeVisible();
  }
  await expect(help.getByText("{UnsubscribeLink}")).toBeVisible();
  await expect(help.getByText("Link to unsubscribe from email and text (SMS) notifications")).toBeVisible();
  await axeClean(page);
  await page.setViewportSize({ width: 390, height: 900 });
  await page.screenshot({ path: `${SCREENSHOTS}/notification-templates-tokens-390.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await help.getByRole("button", { name: "Close" }).first().click();

  await modal.getByRole("button", { name: "Preview" }).click();
  const frame = page.frameLocator('iframe[title="Email preview"]');
  await expect(frame.getByText("Dear Jane Sample, please call Demo Imaging Center.")).toBeVisible();
  await expect(modal.getByText("Time for your exam, Jane")).toBeVisible();
  await axeClean(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/notification-templates-edit-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await save.click();
  await expect(page.getByText("Email template saved.")).toBeVisible();
  await expect(modal).toBeHidden();
  await letters.getByRole("button", { name: "Edit Recall email" }).click();
  await expect(page.getByRole("dialog", { name: "Edit Email Template" }).getByLabel("Subject")).toHaveValue("Time for your exam, {PatientFirstName}");
  await page.getByRole("dialog", { name: "Edit Email Template" }).getByRole("button", { name: "Cancel" }).click();
});

test("portal template: add, edit (name fixed), delete", async ({ page }) => {
  await signIn(page, "staff", "clientadmin");
  await page.goto(PAGE);
  const portal = page.getByRole("table", { name: "Portal Email Templates" });
  await expect(portal.getByRole("row")).toHaveCount(5);
  await page.getByRole("button", { name: "Add Template" }).click();
  const modal = page.getByRole("dialog", { name: "Add Template" });
  const save = modal.getByRole("button", { name: "Save" });
  await expect(save).toBeDisabled();
  await modal.getByLabel("Name").fill("Arrival by text");
  await modal.getByLabel("Type").selectOption("IamHere");
  await modal.getByLabel("Is Active").uncheck();
  await modal.getByLabel("Send during business hours").check();
  await modal.getByLabel("Subject").fill("We are expecting you, {PatientFirstName}");
  await modal.getByRole("textbox", { name: "Body" }).click();
  await page.keyboard.type("Tap {IamHereLink} when you arrive.");
  await save.click();
  await expect(page.getByText("Template saved.")).toBeVisible();
  const row = portal.getByRole("row", { name: /Arrival by text/ });
  await expect(row).toContainText("no");
  await expect(row).toContainText("I Am Here");

  await row.getByRole("button", { name: "Edit Arrival by text" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Template" });
  await expect(edit.getByLabel("Name")).toHaveAttribute("readonly", "");
  await edit.getByLabel("Is Active").check();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(row).toContainText("yes");
  await row.getByRole("button", { name: "Edit Arrival by text" }).click();
  await page.getByRole("dialog", { name: "Edit Template" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Template deleted.")).toBeVisible();
  await expect(portal.getByRole("row", { name: /Arrival by text/ })).toHaveCount(0);
  await axeClean(page);
});
