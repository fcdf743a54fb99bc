import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { SCREENSHOTS, signIn } from "./helpers";

// Portal Core pages of spec 03 §2 (issue 14): User Account, Dynamic Labels, Login Page, Other,
// Licenses, Luminary One, Form XML. The demo portal is shared with the other specs: these tests
// change only settings nothing else depends on, and put back what they change.
test.describe.configure({ mode: "serial" });

const SAVED = "Configuration has been successfully saved!";
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

async function axeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(WCAG).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

async function csrf(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === "portal_csrf")!.value;
}

/** Saves group `name` through the API the page uses, as another administrator would. */
async function saveAsSomeoneElse(page: Page, name: string, edit: (s: Record<string, unknown>) => void) {
  const current = await (await page.request.get(`/api/configurationForm/${name}`)).json();
  const settings = { ...current.Settings };
  edit(settings);
  const saved = await page.request.put(`/api/configurationForm/${name}`, {
    headers: { "X-CSRF-Token": await csrf(page) },
    data: { Version: current.Version, Settings: settings },
  });
  expect(saved.status()).toBe(200);
}

test("User Account: five pages, invalid -> message and 'Form is invalid', save, reload, 409", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/user-account");
  await expect(page).toHaveURL(/\/admin\/core-settings\/user-account\/switch-user-options$/);
  const tabs = page.getByRole("navigation", { name: "User Account Settings" });
  for (const tab of ["Switch User Options", "Password Settings", "User Account Verification", "Patient Portal Options", "Username Validation"]) {
    await expect(tabs.getByRole("link", { name: tab })).toBeVisible();
  }
  const switchForm = page.getByRole("form", { name: "Switch User Options" });
  await expect(switchForm.getByLabel("Show Reports for ClientAdmin users")).toBeVisible();
  await axeClean(page);

  // Password settings: digits only (spec 03 §5), nothing saved.
  await tabs.getByRole("link", { name: "Password Settings" }).click();
  const form = page.getByRole("form", { name: "Password Settings" });
  const fails = form.getByLabel("Failed sign-ins before lockout (IDFailMax, 0 = disabled)");
  await expect(fails).toHaveValue(/\d+/);
  const original = await fails.inputValue();
  await fails.fill("2.5");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await expect(form.getByText("Only digits are allowed")).toBeVisible();
  await axeClean(page);
  await fails.fill(original);
  const label = form.getByLabel("New password field label", { exact: true });
  await label.fill("Your new password");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("New password field label", { exact: true })).toHaveValue("Your new password");

  // Someone else saves after this page loaded: the later save is refused, Reload shows theirs.
  await saveAsSomeoneElse(page, "UserAccountPassword", (s) => (s.NewPasswordString = "New password (theirs)"));
  await form.getByLabel("New password field label", { exact: true }).fill("Mine");
  await form.getByRole("button", { name: "Save" }).click();
  const conflict = form.getByRole("alert").filter({ hasText: "Someone else saved this page after you opened it" });
  await expect(conflict).toBeVisible();
  await conflict.getByRole("button", { name: "Reload" }).click();
  await expect(form.getByLabel("New password field label", { exact: true })).toHaveValue("New password (theirs)");
  await form.getByLabel("New password field label", { exact: true }).fill("New password");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();

  // Verification, patient options and username pages save and reload.
  await tabs.getByRole("link", { name: "User Account Verification" }).click();
  const verification = page.getByRole("form", { name: "User Account Verification" });
  await verification.getByLabel("Verification attempts (0 = disabled)").fill("");
  await verification.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await expect(verification.getByText("This field is required")).toBeVisible();
  await verification.getByLabel("Verification attempts (0 = disabled)").fill("5");
  await verification.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();

  await tabs.getByRole("link", { name: "Patient Portal Options" }).click();
  const options = page.getByRole("form", { name: "Patient Portal Options" });
  await expect(options.getByLabel("Require date of birth")).toBeVisible();
  await expect(options.getByLabel("Validate date of birth on forgot password")).toBeChecked();

  await tabs.getByRole("link", { name: "Username Validation" }).click();
  const names = page.getByRole("form", { name: "Username Validation" });
  const min = names.getByLabel("Minimum username length");
  const minBefore = await min.inputValue();
  await min.fill("300");
  await names.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await min.fill(minBefore);
  await names.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await axeClean(page);
});

test("Dynamic Labels: tabs, six languages, Add with 'Form is invalid', Save reaches the pages, markup refused, 409", async ({ page }) => {
  // Every shipped label is in the table (hundreds of keys, six text boxes each, 25 to a page).
  test.setTimeout(120_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/dynamic-labels");
  const section = page.getByRole("region", { name: "Dynamic Labels Management" });
  await expect(section.getByRole("tab", { name: "Portal" })).toHaveAttribute("aria-selected", "true");
  for (const column of ["Title", "English", "Spanish", "Chinese", "Cambodian", "Vietnamese", "Tagalog"]) {
    await expect(section.getByRole("columnheader", { name: column })).toBeVisible();
  }
  // Hundreds of Portal labels: 25 to a page with the pager, and Find narrows them.
  await expect(section.getByRole("row")).toHaveCount(26);
  await expect(page.getByText(/^Showing 1 to 25 of \d+ entries$/)).toBeVisible();
  await page.getByRole("navigation", { name: "Pagination" }).getByRole("button", { name: "Page 2" }).click();
  await expect(page.getByText(/^Showing 26 to 50 of \d+ entries$/)).toBeVisible();
  await section.getByLabel("Find").fill("home_welcome");
  await expect(section.getByRole("rowheader", { name: /Home_Welcome$/ })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Pagination" })).toHaveCount(0);
  await section.getByLabel("Find").fill("no label says this");
  await expect(section.getByText("No label of this category matches “no label says this”.")).toBeVisible();
  await section.getByLabel("Find").fill("");
  await axeClean(page);

  // Add: an invalid New Label form, then a valid one.
  const key = `E2E_Label_${Date.now()}`;
  await section.getByRole("button", { name: "Add" }).click();
  const dialog = page.getByRole("dialog", { name: "New Label" });
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await expect(dialog.getByText("Key is required")).toBeVisible();
  await expect(dialog.getByText("Title is required")).toBeVisible();
  await dialog.getByLabel("Key").fill("Home_Welcome");
  await dialog.getByLabel("Title").fill("E2E label");
  await dialog.getByLabel("English").fill("<b>bold</b>");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog.getByText("A label with this key already exists")).toBeVisible();
  await expect(dialog.getByText("Labels are plain text: remove the markup (text between < and >)")).toBeVisible();
  await axeClean(page);
  await dialog.getByLabel("Key").fill(key);
  await dialog.getByLabel("Category").selectOption("Survey");
  await dialog.getByLabel("English").fill("Hello from e2e");
  await dialog.getByLabel("Spanish").fill("Hola desde e2e");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toBeHidden();
  await expect(section.getByRole("tab", { name: "Survey" })).toHaveAttribute("aria-selected", "true");
  await expect(section.getByRole("rowheader", { name: new RegExp(key) })).toBeVisible();

  // Edit in the table; markup refused under the cell, nothing stored; then a text saved.
  const spanish = section.getByLabel("E2E label (spanish)");
  await spanish.fill("<script>alert(1)</script>");
  await section.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await expect(section.getByText("Labels are plain text: remove the markup (text between < and >)")).toBeVisible();
  await spanish.fill("Hola <3 a todos");
  await section.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await page.reload();
  await section.getByRole("tab", { name: "Survey" }).click();
  await section.getByLabel("Find").fill(key);
  await expect(section.getByLabel("E2E label (spanish)")).toHaveValue("Hola <3 a todos");
  const values = await (await page.request.get("/api/Configuration/LoadLabelValues?language=spanish")).json();
  expect(values[key]).toBe("Hola <3 a todos");

  // Someone else saves the label after this page loaded it: 409, Reload.
  const labels = await (await page.request.get("/api/Configuration/LoadLabels")).json();
  const mine = labels.find((l: { Key: string }) => l.Key === key);
  mine.Translations[5].Value = "theirs";
  const theirs = await page.request.post("/api/Configuration/SaveLabelValues", {
    headers: { "X-CSRF-Token": await csrf(page) },
    data: { Labels: [mine], New: [] },
  });
  expect(theirs.status()).toBe(200);
  await section.getByLabel("E2E label (tagalog)").fill("mine");
  await section.getByRole("button", { name: "Save" }).click();
  const conflict = section.getByRole("alert").filter({ hasText: "Someone else saved this page after you opened it" });
  await expect(conflict).toBeVisible();
  await conflict.getByRole("button", { name: "Reload" }).click();
  await section.getByRole("tab", { name: "Survey" }).click();
  await section.getByLabel("Find").fill(key);
  await expect(section.getByLabel("E2E label (tagalog)")).toHaveValue("theirs");
});

test("a saved label shows on the patient page that uses it, as text, without a rebuild", async ({ page, browser }) => {
  await signIn(page, "staff", "manager");
  const labels = await (await page.request.get("/api/Configuration/LoadLabels")).json();
  const label = labels.find((l: { Key: string }) => l.Key === "Home_PendingActions");
  const before = label.Translations[0].Value;
  label.Translations[0].Value = "Things to do <3 now";
  const saved = await page.request.post("/api/Configuration/SaveLabelValues", {
    headers: { "X-CSRF-Token": await csrf(page) },
    data: { Labels: [label], New: [] },
  });
  expect(saved.status()).toBe(200);
  try {
    const patient = await browser.newPage();
    await signIn(patient, "patient", "maria.garcia");
    await patient.goto("/home");
    await expect(patient.getByText("Things to do <3 now")).toBeVisible();
    await patient.close();
  } finally {
    const now = await (await page.request.get("/api/Configuration/LoadLabels")).json();
    const back = now.find((l: { Key: string }) => l.Key === "Home_PendingActions");
    back.Translations[0].Value = before;
    await page.request.post("/api/Configuration/SaveLabelValues", { headers: { "X-CSRF-Token": await csrf(page) }, data: { Labels: [back], New: [] } });
  }
});

test("Login Page Settings: 'Values are not valid', Update, the preview reloads and shows the layout", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/login-page");
  const form = page.getByRole("form", { name: "Login Page Settings" });
  const top = form.getByLabel("Top");
  await expect(top).toHaveValue(/\d+/);
  const original = await top.inputValue();
  await top.fill("-3");
  await form.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText("Values are not valid").last()).toBeVisible();
  await expect(form.getByText("Must be between 0 and 1000")).toBeVisible();
  await axeClean(page);
  const preview = page.frameLocator('iframe[title="Patient login page preview"]');
  await expect(preview.getByRole("heading", { name: "Patient Login" })).toBeVisible();
  await top.fill("24");
  const reloaded = page.waitForResponse((r) => r.url().includes("/api/accountApi/loginPageSettings"));
  await form.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await reloaded;
  await expect(preview.getByTestId("login-brand")).toHaveCSS("padding-top", "24px");
  await page.reload();
  await expect(form.getByLabel("Top")).toHaveValue("24");
  await form.getByLabel("Top").fill(original);
  await form.getByRole("button", { name: "Update" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
});

test("Other Settings: Quill help body sanitised on the server; the Help button and the reset link appear", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/other");
  const form = page.getByRole("form", { name: "Other Settings" });
  await expect(form.getByLabel("Help window body content")).toBeVisible();
  await form.getByLabel("Allow email reset link in the My Account menu").check();
  await form.getByLabel("Email reset link text").fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await expect(form.getByText("Link text is required")).toBeVisible();
  await axeClean(page);
  await form.getByLabel("Email reset link text").fill("Email me a reset link");
  await form.getByLabel("Users list SSN column name").fill("MRN");
  await form.getByLabel("Allow Help button").check();
  const editor = form.getByLabel("Help window body content");
  await editor.click();
  await page.keyboard.type("Call the front desk at 555-0100.");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  try {
    await page.reload();
    await expect(form.getByLabel("Help window body content")).toContainText("Call the front desk at 555-0100.");
    // The Help button shows with that content, and the user menu has the reset link.
    await page.getByRole("button", { name: "Help" }).click();
    const help = page.getByRole("dialog", { name: "Help" });
    await expect(help).toContainText("Call the front desk at 555-0100.");
    await axeClean(page);
    await help.getByRole("button", { name: /close/i }).first().click();
    await page.locator(".user-menu-button").click();
    await expect(page.getByRole("link", { name: "Email me a reset link" })).toHaveAttribute("href", "/staff/forgot-password");
    // Markup sent past the page is cleaned on the server: Quill's classes stay, script goes.
    await saveAsSomeoneElse(page, "OtherSettings", (s) => {
      s.HelpModalContent = '<p class="ql-align-center evil">Centered</p><script>alert(1)</script>';
    });
    const stored = await (await page.request.get("/api/accountApi/helpContent")).json();
    expect(stored.HelpModalContent).toBe('<p class="ql-align-center">Centered</p>');
  } finally {
    await saveAsSomeoneElse(page, "OtherSettings", (s) => {
      s.IsAllowedToShowHelpButton = false;
      s.IsAllowedToShowEmailResetLink = false;
      s.EmailResetLink = "";
      s.HelpModalContent = "";
      s.UsersListSsnColumnName = "";
    });
  }
});

test("Licenses: module table, Appointments not toggleable, save, reload, 409", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/licenses");
  const form = page.getByRole("form", { name: "License Management" });
  for (const module of ["Documents", "Appointments", "Medical History", "Tablet Survey"]) {
    await expect(form.getByRole("rowheader", { name: module })).toBeVisible();
  }
  await expect(form.getByLabel("Enable Appointments")).toBeDisabled();
  await expect(form.getByRole("row", { name: /Tablet Survey/ })).toContainText("Yes");
  await axeClean(page);
  // Tablet Survey: off for a few seconds only (a kiosk spec running meanwhile on this shared
  // portal would meet its 403s).
  await form.getByLabel("Enable Tablet Survey").uncheck();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await page.reload();
  await expect(form.getByRole("row", { name: /Tablet Survey/ })).toContainText("No");
  await expect(form.getByLabel("Enable Tablet Survey")).not.toBeChecked();
  // Off, the kiosk's start screen is gone and its calls answer 403 (kept short: the survey specs
  // share this portal's kiosk).
  const kiosk = await page.context().newPage();
  await kiosk.goto("/survey");
  await expect(kiosk.getByText("The Tablet Survey module is not licensed.")).toBeVisible();
  await expect(kiosk.getByLabel("Enter your 4-digit PIN")).toHaveCount(0);
  expect((await kiosk.request.get("/api/surveyIdentity/checkPin?pin=1234")).status()).toBe(403);
  await axeClean(kiosk);
  await kiosk.close();
  // Someone else saves meanwhile: 409, Reload.
  const current = await (await page.request.get("/api/license/getLicense")).json();
  const theirs = await page.request.post("/api/license/updateLicense", {
    headers: { "X-CSRF-Token": await csrf(page) },
    data: { ...current.force, Module_TabletSurvey: true, Version: current.Version },
  });
  expect(theirs.status()).toBe(200);
  await form.getByLabel("Enable Tablet Survey").check();
  await form.getByRole("button", { name: "Save" }).click();
  const conflict = form.getByRole("alert").filter({ hasText: "Someone else saved this page after you opened it" });
  await expect(conflict).toBeVisible();
  await conflict.getByRole("button", { name: "Reload" }).click();
  await expect(form.getByRole("row", { name: /Tablet Survey/ })).toContainText("Yes");
});

test("Luminary One settings and Form XML", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/luminary-one-settings");
  const form = page.getByRole("form", { name: "Luminary One Settings" });
  const url = form.getByLabel("LuminaryOne URL");
  await expect(url).toBeVisible();
  const original = await url.inputValue();
  await url.fill("");
  await expect(form.getByRole("button", { name: "Test" })).toBeDisabled();
  await url.fill("http://127.0.0.1:1");
  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByText("Test Connection Failed")).toBeVisible();
  // The portal itself answers on loopback: the test succeeds.
  await url.fill(new URL(page.url()).origin);
  await form.getByRole("button", { name: "Test" }).click();
  await expect(form.getByText("Connection successfully established")).toBeVisible();
  await form.getByLabel("Expected LuminaryOne version").fill("v".repeat(51));
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await expect(form.getByText("Must be at most 50 characters")).toBeVisible();
  await axeClean(page);
  await form.getByLabel("Expected LuminaryOne version").fill("4.2.1");
  await url.fill(original);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("Expected LuminaryOne version")).toHaveValue("4.2.1");

  await page.goto("/admin/core-settings/form-xml");
  await expect(page.getByRole("heading", { name: "Form XML List" })).toBeVisible();
  await axeClean(page);
});

test("screenshots of the Portal Core pages at 1280, 390 and 820 px", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "staff", "manager");
  const pages = [
    ["user-account", "/admin/core-settings/user-account/password-settings"],
    ["dynamic-labels", "/admin/core-settings/dynamic-labels"],
    ["login-page", "/admin/core-settings/login-page"],
    ["other", "/admin/core-settings/other"],
    ["licenses", "/admin/core-settings/licenses"],
    ["luminary-one", "/admin/luminary-one-settings"],
    ["form-xml", "/admin/core-settings/form-xml"],
  ];
  for (const width of [1280, 390, 820]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [name, path] of pages) {
      await page.goto(path);
      await expect(page.locator("main form, main section").first()).toBeVisible();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${SCREENSHOTS}/portal-core-${name}-${width}.png`, fullPage: true });
    }
  }
});
