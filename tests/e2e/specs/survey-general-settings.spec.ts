import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { expectFieldMessage, SCREENSHOTS, signIn } from "./helpers";

// Survey General Settings (spec 04 §2 "general", §3, §5): fields that follow their switches, the
// spec's limits, the location-to-MRN rows with '(Not found)' columns, save and the 409 flow.
test.describe.configure({ mode: "serial" });

const SAVED = "Configuration has been successfully saved!";
const INVALID = "Form is invalid";

async function axeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function saveElsewhere(page: Page, fields: Record<string, unknown>) {
  const csrf = (await page.context().cookies()).find((c) => c.name === "portal_csrf")!.value;
  const current = await (await page.request.get("/api/surveySettings/generalSettings")).json();
  const saved = await page.request.post("/api/surveySettings/generalSettings", {
    headers: { "X-CSRF-Token": csrf },
    data: { Version: current.Version, Settings: { ...current.Settings, ...fields } },
  });
  expect(saved.status()).toBe(200);
}

test("Survey General Settings: visibility rules, limits, mapping rows, save and 409", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/general");
  const tabs = page.getByRole("navigation", { name: "Survey Settings" });
  await expect(tabs.getByRole("link", { name: "General" })).toBeVisible();
  await expect(tabs.getByRole("link", { name: "Packages" })).toBeVisible();
  const form = page.getByRole("form", { name: "Survey General Settings" });
  await expect(form.getByLabel("Hide patient name in survey")).toBeVisible();

  // Standalone defaults only with StandaloneRiskEnabled; the side only for a procedure asking one.
  await expect(form.getByLabel("Default procedure")).toHaveCount(0);
  await form.getByLabel("Standalone risk assessment").check();
  await expect(form.getByLabel("Default location")).toBeVisible();
  await form.getByLabel("Default procedure").selectOption({ label: "MAMMO DIAGNOSTIC" });
  await expect(form.getByLabel("Side", { exact: true })).toBeVisible();
  await form.getByLabel("Side", { exact: true }).selectOption({ label: "Left" });
  await form.getByLabel("Default procedure").selectOption({ label: "MRI BREAST BILATERAL W WO CONTRAST" });
  await expect(form.getByLabel("Side", { exact: true })).toHaveCount(0);

  // PDF options only with GenerateSummaryReport; the PIN lifetime only while PINs expire.
  await expect(form.getByLabel("Page number font size")).toHaveCount(0);
  await form.getByLabel("Generate summary report").check();
  await expect(form.getByLabel("Page number alignment")).toBeVisible();
  await expect(form.getByLabel("Page number alignment").locator("option")).toHaveText(["Left", "Center", "Right", "Justify"]);
  await form.getByLabel("PINs never expire").check();
  await expect(form.getByLabel("PIN expiration (seconds)")).toHaveCount(0);
  await form.getByLabel("PINs never expire").uncheck();

  // spec 04 §5 limits: messages under their fields and the toast; nothing saved.
  await form.getByLabel("Survey admin PIN").fill("1234567");
  await form.getByLabel("Page number font size").fill("0");
  await form.getByLabel("Generate summary form report").check();
  await form.getByLabel("Summary form top margin").fill("abc");
  await form.getByLabel("PIN expiration (seconds)").fill("");

  // The mapping rows: Add More, required selects, columns not found are disabled.
  const mapping = form.getByRole("group", { name: "Location to MRN column mapping" });
  await mapping.getByRole("button", { name: "Add More" }).click();
  const column = mapping.getByLabel("Column 1");
  await expect(column.locator("option", { hasText: "MRN3 (Not found)" })).toBeDisabled();
  await expect(column.locator("option", { hasText: /^MRN2$/ })).toBeEnabled();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expectFieldMessage(form.getByLabel("Survey admin PIN"), "Must be at most 6 characters");
  await expectFieldMessage(mapping.getByLabel("Location 1"), "Location is required");
  await expectFieldMessage(column, "Column is required");
  await expectFieldMessage(form.getByLabel("Summary form top margin"), "Enter a number");
  await expect(form.getByLabel("Page number font size")).toHaveAttribute("aria-invalid", "true");
  await axeClean(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-general-invalid.png`, fullPage: true });

  // Fixed, it saves; the page reloads what the server holds.
  await form.getByLabel("Survey admin PIN").fill("246810");
  await form.getByLabel("Page number font size").fill("10");
  await form.getByLabel("Summary form top margin").fill("12.5");
  await form.getByLabel("PIN expiration (seconds)").fill("900");
  await mapping.getByLabel("Location 1").selectOption("101");
  await column.selectOption("MRN2");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("Survey admin PIN")).toHaveValue("246810");
  await expect(form.getByLabel("Side", { exact: true })).toHaveCount(0);
  await expect(mapping.getByLabel("Column 1")).toHaveValue("MRN2");

  // A row can be removed; the per-location list shows only with IsSurveyPerLocationEnabled.
  const perLocation = form.getByRole("group", { name: "Survey per location" });
  await expect(perLocation).toBeVisible();
  await form.getByLabel("Enable survey per location").uncheck();
  await expect(perLocation).toHaveCount(0);
  await form.getByLabel("Enable survey per location").check();

  // Someone else saved meanwhile: the later save gets the 409 flow.
  await saveElsewhere(page, { AutoAdvanceInSurveyEnabled: true });
  await form.getByLabel("Hide patient name in survey").check();
  await form.getByRole("button", { name: "Save" }).click();
  const conflict = form.getByRole("alert").filter({ hasText: "Someone else saved this page after you opened it" });
  await expect(conflict).toBeVisible();
  await conflict.getByRole("button", { name: "Reload" }).click();
  await expect(form.getByLabel("Auto advance to the next page after a single-choice answer")).toBeChecked();
  await expect(form.getByLabel("Hide patient name in survey")).not.toBeChecked();

  // Put the demo back for the specs after this one.
  await saveElsewhere(page, { AutoAdvanceInSurveyEnabled: false, SurveyAdminPin: "", LocationToMrnColumnMapping: [], StandaloneRiskEnabled: false, GenerateSummaryReport: false, GenerateSummaryFormReport: false });
});

test("Survey General Settings at 1280, 820 and 390 px", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, "staff", "manager");
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/survey-settings/general");
    const form = page.getByRole("form", { name: "Survey General Settings" });
    await form.getByLabel("Generate summary report").check();
    await form.getByRole("group", { name: "Location to MRN column mapping" }).getByRole("button", { name: "Add More" }).click();
    await page.screenshot({ path: `${SCREENSHOTS}/survey-general-${width}.png`, fullPage: true });
    await axeClean(page);
  }
});
