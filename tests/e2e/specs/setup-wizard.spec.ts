import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "./fixtures";
import { expectFieldMessage, expectHome, expectNoAxeViolations, menuEntry, signIn } from "./helpers";

// spec 02 §2.11, §4 "Setup wizard", §5, §8: configures a fresh portal end to end. This spec has a
// portal of its own (PORTAL_WIZARD_URL, see run-local.sh): the PORTAL_UNCONFIGURED_URL one must
// stay unconfigured for unconfigured.spec.ts. The connection tests are real: the local PostgreSQL
// at 127.0.0.1:5432, the wizard portal's own address, folders of this machine.

test.describe.configure({ mode: "serial" });

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const firstManager = (page: Page) => page.getByRole("group", { name: "First Program manager" });
const MANAGER_PASSWORD = "Clinic!First2026";

async function fillFirstManager(page: Page, username: string, repeat = MANAGER_PASSWORD) {
  const group = firstManager(page);
  await group.getByLabel("First Name", { exact: true }).fill("Fran");
  await group.getByLabel("Last Name", { exact: true }).fill("First");
  await group.getByLabel("Username", { exact: true }).fill(username);
  await group.getByLabel("Email", { exact: true }).fill(`${username}@example.org`);
  await group.getByLabel("Password", { exact: true }).fill(MANAGER_PASSWORD);
  await group.getByLabel("Repeat password", { exact: true }).fill(repeat);
}

test("the wizard configures a fresh portal", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  const origin = new URL(baseURL!);
  // A second visitor who opened the wizard before the save: their later save is refused.
  const late = await browser.newPage({ baseURL });
  await late.goto("/init/configuration");
  await expect(late.getByRole("heading", { name: "Portal configuration" })).toBeVisible();

  await page.goto("/");
  await expect(page).toHaveURL(/\/init$/);
  await page.getByRole("link", { name: "Go to configuration" }).click();
  await expect(page.getByRole("heading", { name: "Portal configuration" })).toBeVisible();
  for (const step of ["Magview Settings", "Site Settings", "Summary"]) {
    await expect(page.getByRole("listitem").filter({ hasText: step })).toBeVisible();
  }

  // Previous and Next are disabled while Client Name is empty; Save only on step 3.
  await field(page, "Client Name").fill("");
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Previous" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await field(page, "Client Name").fill("Playwright Breast Imaging");
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled();
  await expectNoAxeViolations(page, "main");

  // Step 1: the clinical system. A real folder test; its success banner goes after 4 s.
  await field(page, "MagView path").fill("/no/such/magview");
  await page.getByRole("button", { name: "Test MagView path" }).click();
  const failure = page.getByRole("alert").filter({ hasText: "Test Connection Failed" });
  await expect(failure).toContainText("/no/such/magview");
  await field(page, "MagView path").fill("/tmp");
  await page.getByRole("button", { name: "Test MagView path" }).click();
  const found = page.getByRole("status").filter({ hasText: "Folder found: /tmp" });
  await expect(found).toBeVisible();
  await page.waitForTimeout(4_300);
  await expect(found).toHaveCount(0);

  // RadView: its path comes from the RadView.ini beside the MagView database (real files).
  const magview = mkdtempSync(join(tmpdir(), "e2e-magview-"));
  const radview = join(magview, "radview-data");
  mkdirSync(radview);
  await field(page, "MagView path").fill(magview);
  await field(page, "Linked to RadView").check();
  await page.getByRole("button", { name: "Detect RadView path" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "RadView path not found" })).toContainText("No RadView settings file (RadView.ini)");
  writeFileSync(join(magview, "RadView.ini"), `[Paths]\nRadViewPath=${radview}\n`);
  await page.getByRole("button", { name: "Detect RadView path" }).click();
  await expect(page.getByRole("status").filter({ hasText: `RadView path found: ${radview}` })).toBeVisible();
  await expect(field(page, "RadView path")).toHaveValue(radview);
  await field(page, "MagView path").fill("/tmp");

  // FoxPro forces DMZ mode off.
  await field(page, "DMZ mode").check();
  await expect(field(page, "Proxy application web address")).toBeVisible();
  await field(page, "Data connection type").selectOption("FOXPRO");
  await expect(field(page, "DMZ mode")).not.toBeChecked();
  await expect(field(page, "DMZ mode")).toBeDisabled();

  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("listitem").filter({ hasText: "Site Settings" })).toHaveAttribute("aria-current", "step");

  // Step 2: the public address gets http:// and a trailing slash for its (real) test.
  await field(page, "Public web address").fill(origin.host);
  await page.getByRole("button", { name: "Test public address" }).click();
  await expect(page.getByRole("status").filter({ hasText: `${origin.origin}/ answered 200` })).toBeVisible();

  // The portal database: failure, 'will be created' warning, success.
  await field(page, "Server name").fill("127.0.0.1:1");
  await field(page, "Database name").fill("postgres");
  await field(page, "SQL login").fill("postgres");
  await field(page, "SQL password").fill("e2e-Secret-99");
  await page.getByRole("button", { name: "Test portal connection" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Test Connection Failed" })).toBeVisible();
  await field(page, "Server name").fill("127.0.0.1:5432");
  await field(page, "Database name").fill("portal_e2e_no_such_database");
  await page.getByRole("button", { name: "Test portal connection" }).click();
  const warning = page.getByRole("status").filter({ hasText: "will be created" });
  await expect(warning).toContainText("Connection successfully established");
  await page.waitForTimeout(4_300);
  await expect(warning).toBeVisible(); // a warning stays
  await field(page, "Database name").fill("postgres");
  await page.getByRole("button", { name: "Test portal connection" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Connection successfully established$/ })).toBeVisible();

  // Service account: normalised on save; mismatching passwords refuse the save.
  await page.getByRole("group", { name: "Service account" }).getByLabel("User name", { exact: true }).fill("CORP\\svc-portal");
  await page.getByRole("group", { name: "Service account" }).getByLabel("Password", { exact: true }).fill("one");
  await page.getByRole("group", { name: "Service account" }).getByLabel("Confirm password", { exact: true }).fill("two");
  // Survey: patient-select mode without an admin PIN.
  await field(page, "Select patient mode").check();

  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByRole("button", { name: "Save" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Next" })).toHaveCount(0);
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Not all necessary fields were filled with data").first()).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Passwords are not matching" })).toBeVisible();

  await page.getByRole("button", { name: "Previous" }).click();
  // The messages are under their fields too, and follow the values from now on.
  const confirm = page.getByRole("group", { name: "Service account" }).getByLabel("Confirm password", { exact: true });
  await expectFieldMessage(confirm, "Passwords are not matching");
  // A settings group's rule (CoreNotifications, which the server's engine checks on save) under
  // the wizard's own field.
  const port = page.getByRole("group", { name: "Notification settings" }).getByLabel("Port", { exact: true });
  await port.fill("70000");
  await expectFieldMessage(port, "Must be at most 65535");
  await port.fill("");
  await expectFieldMessage(port, "Enter a number");
  await port.fill("25");
  await expect(port).not.toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page, "main");
  await confirm.fill("one");
  await expect(confirm).not.toHaveAttribute("aria-invalid", "true");
  await field(page, "Admin PIN").fill("2468");
  await page.getByRole("button", { name: "Next" }).click();

  // The summary shows the normalised values and no secret.
  const summary = page.locator(".summary");
  await expect(summary).toContainText("\\svc-portal");
  await expect(summary).toContainText(`http://${origin.host}`);
  await expect(summary).not.toContainText("e2e-Secret-99");

  // The first Program manager: the password rules and the repeat are wasm-core's.
  await expect(firstManager(page)).toBeVisible();
  await fillFirstManager(page, "clinic.manager", "Clinic!Other2026");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").first()).toBeVisible();
  await expect(firstManager(page)).toContainText("Password and Repeat password do not match");
  await expectFieldMessage(firstManager(page).getByLabel("Repeat password", { exact: true }), "Password and Repeat password do not match");
  await firstManager(page).getByLabel("Password", { exact: true }).fill("short");
  await expect(firstManager(page)).toContainText("Password must be at least 8 characters long");
  await firstManager(page).getByLabel("Password", { exact: true }).fill(MANAGER_PASSWORD);
  await firstManager(page).getByLabel("Repeat password", { exact: true }).fill(MANAGER_PASSWORD);
  await expect(firstManager(page)).not.toContainText("do not match");
  await page.getByRole("button", { name: "Save" }).click();
  const saved = page.getByRole("status").filter({ hasText: "Configuration saved" });
  await expect(saved).toBeVisible();
  await expect(saved).toContainText("Sign in as clinic.manager at the staff login");
  await expect(firstManager(page)).toHaveCount(0);

  // The visitor who opened the wizard earlier cannot save over it any more.
  await field(late, "Client Name").fill("Someone Else");
  await field(late, "MagView mode").selectOption("LuminaryOne");
  await field(late, "LuminaryOne URL").fill("http://127.0.0.1:9/");
  await late.getByRole("button", { name: "Next" }).click();
  // spec 03 §5: the Public Web Address is required (the wizard writes CorePortal, which needs it).
  await field(late, "Public web address").fill(origin.host);
  await field(late, "Database name").fill("postgres");
  await field(late, "Integrated security").check();
  await late.getByRole("button", { name: "Next" }).click();
  await fillFirstManager(late, "late.manager");
  await late.getByRole("button", { name: "Save" }).click();
  await expect(late.getByRole("alert").filter({ hasText: "Error while saving configuration" })).toBeVisible();
  await late.close();

  // Launch: the guard now lets routes through (to the sign-in page).
  await saved.getByRole("link", { name: "Launch the portal" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
  const configured = await page.request.get("/api/TestInit/isPortalConfigured");
  expect(await configured.json()).toEqual({ IsPortalConfigured: true });

  // The clinic signs in with the account it just made, and /init is closed to anonymous callers.
  await signIn(page, "staff", "clinic.manager", MANAGER_PASSWORD);
  await expectHome(page);
  await expect(page.getByRole("heading", { name: "Welcome, Fran First" })).toBeVisible();
  await expect(menuEntry(page, "Users")).toBeVisible();
  const late2 = await browser.newPage({ baseURL });
  expect((await late2.request.get("/api/configuration/loadConfiguration")).status()).toBe(401);
  await late2.close();
});
