import AxeBuilder from "@axe-core/playwright";
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PASSWORD, SCREENSHOTS, signIn } from "./helpers";
import { freshSurvey, staffApi } from "./survey-seed";

// Survey themes (spec 04 §2 "Survey themes", §4, §5): the admin page, and every shipped theme on
// the survey runner passing axe (colour contrast included), the patient's theme switch unless
// it is hidden, and the runner's patient name (SurveyGeneral HidePatientNameInSurvey).
test.describe.configure({ mode: "serial" });

async function axeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** A program manager's API context for the theme calls. */
async function managerApi(request: APIRequestContext): Promise<string> {
  await request.get("/api/health");
  const csrf = (await request.storageState()).cookies.find((c) => c.name === "portal_csrf")!.value;
  const login = await request.post("/api/staffUser/login", { data: { usernameOrEmail: "manager", password: PASSWORD }, headers: { "X-CSRF-Token": csrf } });
  expect((await login.json()).IsValid).toBe(true);
  return csrf;
}

async function applyTheme(request: APIRequestContext, csrf: string, name: string) {
  const r = await request.post(`/api/surveyTheme/ChangeSurveyTheme?theme=${encodeURIComponent(name)}`, { data: { Name: name }, headers: { "X-CSRF-Token": csrf } });
  expect(r.status()).toBe(200);
}

async function saveGroup(request: APIRequestContext, csrf: string, group: string, fields: Record<string, unknown>) {
  const current = await (await request.get(`/api/configurationForm/${group}`)).json();
  const r = await request.put(`/api/configurationForm/${group}`, {
    headers: { "X-CSRF-Token": csrf },
    data: { Version: current.Version, Settings: { ...current.Settings, ...fields } },
  });
  expect(r.status()).toBe(200);
}

test("Survey Themes Management: the table, Apply, add with Theme Name required, delete with confirmation", async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/themes");
  await expect(page.getByRole("navigation", { name: "Survey Settings" }).getByRole("link", { name: "Themes" })).toBeVisible();
  await expect(page.getByLabel("Hide survey theme settings button")).toBeVisible();
  const table = page.getByRole("table", { name: "Survey themes" });
  await expect(table.getByRole("row")).toHaveCount(4);
  const defaultRow = table.getByRole("row", { name: /Default/ });
  await expect(defaultRow.getByRole("button", { name: "Selected" })).toBeDisabled();
  await expect(defaultRow.getByRole("button", { name: /Delete/ })).toHaveCount(0);

  // The add-theme modal: Theme Name is required.
  await page.getByRole("button", { name: "Add Theme" }).click();
  const dialog = page.getByRole("dialog", { name: "Add Theme" });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByText("Theme Name is required")).toBeVisible();
  await axeClean(page);
  await dialog.getByLabel("Theme Name").fill("Clinic Calm");
  await dialog.getByLabel("Based on").selectOption({ label: "Large text" });
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog).toHaveCount(0);
  const calm = table.getByRole("row", { name: /Clinic Calm/ });
  await expect(calm).toBeVisible();

  // Apply moves 'Selected'; then back to Default.
  await calm.getByRole("button", { name: "Apply Clinic Calm" }).click();
  await expect(calm.getByRole("button", { name: "Selected" })).toBeDisabled();
  await expect(defaultRow.getByRole("button", { name: "Apply Default" })).toBeEnabled();
  await defaultRow.getByRole("button", { name: "Apply Default" }).click();
  await expect(defaultRow.getByRole("button", { name: "Selected" })).toBeDisabled();

  // Delete asks first.
  await calm.getByRole("button", { name: "Delete Clinic Calm" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Theme" });
  await expect(confirm.getByText("Are you sure you want to delete this theme: Clinic Calm")).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(calm).toHaveCount(0);

  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto("/admin/survey-settings/themes");
    await expect(table.getByRole("row")).toHaveCount(4);
    await page.screenshot({ path: `${SCREENSHOTS}/survey-themes-${width}.png`, fullPage: true });
    await axeClean(page);
  }
});

test("every shipped theme restyles the kiosk PIN screen and the runner and passes axe; the patient may switch unless hidden", async ({ page, browser }) => {
  test.setTimeout(300_000);
  const staff = await browser.newContext();
  const staffCsrf = await staffApi(staff.request);
  const manager = await browser.newContext();
  const csrf = await managerApi(manager.request);
  try {
    for (const name of ["default", "high-contrast", "large-text"]) {
      await applyTheme(manager.request, csrf, name);
      const { pin } = await freshSurvey(staff.request, staffCsrf, "PES-010");
      // The kiosk's PIN screen wears the theme too, and passes axe in it (empty, then with the
      // PIN typed and Start enabled).
      await page.goto("/survey");
      const pinBox = page.getByLabel("Enter your 4-digit PIN");
      await expect(pinBox).toBeVisible();
      if (name === "high-contrast") {
        await expect(page.locator("main.survey-screen")).toHaveCSS("background-color", "rgb(0, 0, 0)");
      }
      await axeClean(page);
      await pinBox.fill(pin);
      await expect(page.getByRole("button", { name: "Start" })).toBeEnabled();
      await page.screenshot({ path: `${SCREENSHOTS}/survey-pin-theme-${name}.png`, fullPage: true });
      await axeClean(page);
      await page.getByRole("button", { name: "Start" }).click();
      await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
      // The patient's name (HidePatientNameInSurvey is off in the demo).
      await expect(page.getByText("Zoe Zeller")).toBeVisible();
      const theme = page.getByLabel("Theme", { exact: true });
      await expect(theme).toHaveValue(name);
      await page.getByRole("button", { name: "Next" }).click();
      await expect(page.getByText("This question is required").first()).toBeVisible();
      await page.screenshot({ path: `${SCREENSHOTS}/survey-theme-${name}.png`, fullPage: true });
      await axeClean(page);
      if (name === "large-text") {
        expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe("20px");
      }
      if (name === "high-contrast") {
        await expect(page.locator("main.survey-screen")).toHaveCSS("background-color", "rgb(0, 0, 0)");
      }
    }

    // The patient's own choice on this device.
    await applyTheme(manager.request, csrf, "default");
    await page.reload();
    await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
    await page.getByLabel("Theme", { exact: true }).selectOption({ label: "High contrast" });
    await expect(page.locator("main.survey-screen")).toHaveCSS("background-color", "rgb(0, 0, 0)");
    await axeClean(page);

    // Hidden: no switch, and the clinic's theme again; the name hidden too.
    await saveGroup(manager.request, csrf, "SurveyThemesSettings", { HideSurveyThemeSettingsButton: true });
    await saveGroup(manager.request, csrf, "SurveyGeneral", { HidePatientNameInSurvey: true });
    await page.reload();
    await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
    await expect(page.getByLabel("Theme", { exact: true })).toHaveCount(0);
    await expect(page.locator("main.survey-screen")).toHaveCSS("background-color", "rgb(244, 247, 248)");
    await expect(page.getByText("Zoe Zeller")).toHaveCount(0);
  } finally {
    await saveGroup(manager.request, csrf, "SurveyThemesSettings", { HideSurveyThemeSettingsButton: false });
    await saveGroup(manager.request, csrf, "SurveyGeneral", { HidePatientNameInSurvey: false });
    await applyTheme(manager.request, csrf, "default");
    await staff.close();
    await manager.close();
  }
});
