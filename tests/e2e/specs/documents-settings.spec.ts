import { expect, test, type Page } from "./fixtures";
import { DocumentsSettingsApi } from "./documents-settings-api";
import { expectFieldMessage, expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Documents Settings (spec 03 §2, §4, §5; issue 16): the general-documents tab (four settings
// groups, the §4 visibility rules, 'Form is invalid', 409) and the documents-hiding-email-not-
// sending tab. They save groups the patient pages read, so they run one after another and put
// every group back (documents.spec.ts checks what each setting does to the patient's page).
test.describe.configure({ mode: "serial" });

const SAVED = "Configuration has been successfully saved!";
const INVALID = "Form is invalid";
const BASE = "/admin/patient-result-portal-settings/documents";

async function open(page: Page, tab: string) {
  await signIn(page, "staff", "manager");
  await page.goto(`${BASE}/${tab}`);
}

test("Patient Result Portal opens Documents Settings on general-documents, tabs by address", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/patient-result-portal-settings/documents");
  await expect(page).toHaveURL(/\/documents\/general-documents$/, { timeout: 20_000 });
  const tabs = page.getByRole("navigation", { name: "Documents Settings" });
  await tabs.getByRole("link", { name: "Hiding and Email Delay" }).click();
  await expect(page).toHaveURL(/\/documents\/documents-hiding-email-not-sending$/);
  await expect(page.getByRole("form", { name: "Documents hiding and email not sending" })).toBeVisible();
});

test("general-documents: the four sections, the visibility rules, 'Form is invalid', one Save for all and 409", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await open(page, "general-documents");
  const form = page.getByRole("form", { name: "General documents settings" });
  for (const name of ["Essential Settings", "Column Titles", "Alternate Document Types Descriptions", "Other Settings"]) {
    await expect(form.getByRole("group", { name })).toBeVisible();
  }
  // One Save for the tab (spec 03 §2).
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(1);
  const essential = form.getByRole("group", { name: "Essential Settings" });
  // spec 03 §4: each dependent field appears with its switch.
  const rules: [string, string][] = [
    ["Acknowledge on view", "Acknowledge on view delay (seconds)"],
    ["Compact view", "Compact view documents description"],
    ["Disable RSeq / RDate grouping", "Show RSeq with document type"],
  ];
  for (const [the, dependent] of rules) {
    await expect(essential.getByLabel(dependent, { exact: true })).toHaveCount(0);
    await essential.getByLabel(the, { exact: true }).check();
    await expect(essential.getByLabel(dependent, { exact: true })).toBeVisible();
  }
  // spec 03 §5: the ack delay (shown now) is a whole number; 'Form is invalid', nothing saved.
  const delay = essential.getByLabel("Acknowledge on view delay (seconds)", { exact: true });
  await delay.fill("2.5");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expectFieldMessage(delay, "Value can not be decimal");
  await expectNoAxeViolations(page);
  for (const [the] of rules) await essential.getByLabel(the, { exact: true }).uncheck();
  await expect(delay).toHaveCount(0);

  // A disabled location (the checkboxes list the provider's locations) and a title in another
  // section: one Save stores both.
  const locations = essential.getByRole("group", { name: "Disabled results portal locations" });
  await locations.getByRole("checkbox").first().check();
  const titles = form.getByRole("group", { name: "Column Titles" });
  await titles.getByLabel("Acknowledged column title", { exact: true }).fill("Confirmed");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.reload();
  await expect(locations.getByRole("checkbox").first()).toBeChecked({ timeout: 30_000 });
  await expect(titles.getByLabel("Acknowledged column title", { exact: true })).toHaveValue("Confirmed");

  // Someone else saves Other Settings after the page loaded: the whole save gets the 409 flow,
  // and nothing of it is stored (the title edit too).
  const api = await DocumentsSettingsApi.open(browser);
  try {
    await api.save("DocumentsOther", { DocAckBtnText: "Theirs" });
    const other = form.getByRole("group", { name: "Other Settings" });
    await other.getByLabel("Acknowledge button text", { exact: true }).fill("Mine");
    await titles.getByLabel("Acknowledged column title", { exact: true }).fill("Not stored");
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form.getByText("Someone else saved this page after you opened it")).toBeVisible();
    await form.getByRole("button", { name: "Reload" }).click();
    await expect(other.getByLabel("Acknowledge button text", { exact: true })).toHaveValue("Theirs");
    await expect(titles.getByLabel("Acknowledged column title", { exact: true })).toHaveValue("Confirmed");
  } finally {
    await api.restore();
  }
  // Put this test's own saves back.
  await page.reload();
  await locations.getByRole("checkbox").first().uncheck({ timeout: 30_000 });
  await titles.getByLabel("Acknowledged column title", { exact: true }).fill("Acknowledged");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).first()).toBeVisible();
  await page.reload();
  await expect(titles.getByLabel("Acknowledged column title", { exact: true })).toHaveValue("Acknowledged", { timeout: 30_000 });
});

test("documents-hiding-email-not-sending: forever disables the days, BI-RADS rules, the delay unit; saved", async ({ page }) => {
  test.setTimeout(120_000);
  await open(page, "documents-hiding-email-not-sending");
  const form = page.getByRole("form", { name: "Documents hiding and email not sending" });
  const byType = form.getByRole("group", { name: "By Letter Type" });
  await expect(byType.getByLabel("Days", { exact: true })).toBeEnabled();
  await byType.getByLabel("Hide forever", { exact: true }).check();
  await expect(byType.getByLabel("Days", { exact: true })).toBeDisabled();
  await expect(byType.getByLabel("Business days", { exact: true })).toBeDisabled();
  await byType.getByLabel("Hide forever", { exact: true }).uncheck();
  await byType.getByLabel("Business days", { exact: true }).fill("2");

  const byBirads = form.getByRole("group", { name: "By BI-RADS" });
  await byBirads.getByRole("button", { name: "Add letter type" }).click();
  await byBirads.getByLabel("Letter type", { exact: true }).fill("Patient Result Letter");
  await byBirads.getByRole("button", { name: "Add BI-RADS rule" }).click();
  const rule = byBirads.getByRole("group", { name: "BI-RADS rule 1 of letter type 1" });
  await rule.getByLabel("BI-RADS", { exact: true }).selectOption("4");
  await rule.getByLabel("Hide forever", { exact: true }).check();
  await expect(rule.getByLabel("Days", { exact: true })).toBeDisabled();
  await rule.getByLabel("Allow acknowledge", { exact: true }).uncheck();

  const delay = form.getByRole("group", { name: "Emails/Letters Delay" });
  await delay.getByLabel("Unit", { exact: true }).selectOption({ label: "Business Days" });
  await delay.getByLabel("Delay", { exact: true }).fill("1");
  // A date that is no date: the group's message, nothing saved.
  await form.getByLabel("Hide all letters sent before this date", { exact: true }).fill("03/01/2026");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expectFieldMessage(form.getByLabel("Hide all letters sent before this date", { exact: true }), "Enter a date as YYYY-MM-DD");
  await form.getByLabel("Hide all letters sent before this date", { exact: true }).fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.reload();
  // A fresh page loads the settings rules' wasm package again: slow on a busy machine.
  await expect(rule.getByLabel("BI-RADS", { exact: true })).toHaveValue("4", { timeout: 30_000 });
  await expect(rule.getByLabel("Hide forever", { exact: true })).toBeChecked();
  await expect(delay.getByLabel("Unit", { exact: true })).toHaveValue("-1");
  await expect(byType.getByLabel("Business days", { exact: true })).toHaveValue("2");

  // Back to nothing held.
  await byBirads.getByRole("button", { name: "Remove letter type 1" }).click();
  await byType.getByLabel("Business days", { exact: true }).fill("0");
  await delay.getByLabel("Unit", { exact: true }).selectOption({ label: "No delay" });
  await delay.getByLabel("Delay", { exact: true }).fill("0");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).first()).toBeVisible();
});

test("Documents Settings tabs at 1280, 820 and 390 px", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, "staff", "manager");
  for (const tab of ["general-documents", "documents-hiding-email-not-sending", "pdf-printers"]) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${BASE}/${tab}`);
    await expect(page.getByRole("button", { name: "Save" }).first()).toBeVisible();
    if (tab === "documents-hiding-email-not-sending") {
      // A BI-RADS rule on screen too (not saved).
      await page.getByRole("button", { name: "Add letter type" }).click();
      await page.getByRole("button", { name: "Add BI-RADS rule" }).click();
    }
    for (const width of [1280, 820, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({ path: `${SCREENSHOTS}/documents-settings-${tab}-${width}.png`, fullPage: true });
      await expectNoAxeViolations(page);
    }
  }
});
