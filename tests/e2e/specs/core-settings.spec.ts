import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { mails } from "./mail";
import { SCREENSHOTS, signIn } from "./helpers";

// Core Settings (spec 03 §2 Portal / MagView / Notifications / Timer Service): each page saves a
// group of the demo clinic the others read, so they run one after another.
test.describe.configure({ mode: "serial" });

const SAVED = "Configuration has been successfully saved!";
const INVALID = "Form is invalid";

async function axeClean(page: Page, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const axe = await builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Someone else saves group `name` (the API the page uses) after the page loaded it. */
async function saveElsewhere(page: Page, name: string, fields: Record<string, unknown>) {
  const csrf = (await page.context().cookies()).find((c) => c.name === "portal_csrf")!.value;
  const current = await (await page.request.get(`/api/configurationForm/${name}`)).json();
  const saved = await page.request.put(`/api/configurationForm/${name}`, {
    headers: { "X-CSRF-Token": csrf },
    data: { Version: current.Version, Settings: { ...current.Settings, ...fields } },
  });
  expect(saved.status()).toBe(200);
}

test("Portal Core opens on Core Settings > Portal; rules, the three database test outcomes, the public address test, save, reload and 409", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings");
  await expect(page).toHaveURL(/\/admin\/core-settings\/general\/portal$/);
  const tabs = page.getByRole("navigation", { name: "Core Settings" });
  for (const tab of ["Portal", "MagView", "Notifications", "Timer Service"]) await expect(tabs.getByRole("link", { name: tab })).toBeVisible();
  const form = page.getByRole("form", { name: "Portal" });
  await expect(form.getByLabel("Client Name", { exact: true })).toBeVisible();

  // spec 03 §5 messages under their fields and the toast; nothing saved.
  const clientName = form.getByLabel("Client Name", { exact: true });
  const original = await clientName.inputValue();
  await clientName.fill("");
  await form.getByLabel("Session timeout (minutes)", { exact: true }).fill("20.5");
  await form.getByLabel("Retry count", { exact: true }).fill("1.5");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(form.getByText("Client Name field can not be empty")).toBeVisible();
  await expect(form.getByText("Value can not be decimal")).toHaveCount(2);
  await axeClean(page);
  await form.getByLabel("Session timeout (minutes)", { exact: true }).fill("20");
  await form.getByLabel("Warn before session timeout (minutes)", { exact: true }).fill("20");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(form.getByText("Warning before session timeout should be less than session timeout")).toBeVisible();
  await form.getByLabel("Warn before session timeout (minutes)", { exact: true }).fill("2");
  await form.getByLabel("Retry count", { exact: true }).fill("3");
  await clientName.fill(original || "Demo Breast Imaging");

  // The portal database: a PostgreSQL server here (127.0.0.1:5432, trust auth).
  await form.getByLabel("Server Name", { exact: true }).fill("127.0.0.1:5432");
  await form.getByRole("radio", { name: "SQL Server Authentication" }).check();
  await expect(form.getByLabel("Login", { exact: true })).toBeVisible();
  await form.getByLabel("Login", { exact: true }).fill("postgres");
  await form.getByLabel("Password", { exact: true }).fill("e2e-unused");
  const dbName = form.getByLabel("Database Name", { exact: true });
  const test = form.getByRole("button", { name: "Test Connection" });
  await dbName.fill("");
  await expect(test).toBeDisabled();
  await dbName.fill("postgres");
  await test.click();
  await expect(form.getByRole("status").filter({ hasText: "Connection successfully established" })).toBeVisible();
  const fresh = `portal_e2e_${Date.now()}`;
  await dbName.fill(fresh);
  await test.click();
  await expect(form.getByRole("status").filter({ hasText: `Connection successfully established. NOTE! New database ${fresh} will be created.` })).toBeVisible();
  await form.getByLabel("Server Name", { exact: true }).fill("127.0.0.1:1");
  await test.click();
  await expect(form.getByRole("alert").filter({ hasText: "Test Connection Failed" })).toBeVisible();
  await form.getByLabel("Server Name", { exact: true }).fill("127.0.0.1:5432");
  // Windows authentication: no login or password.
  await form.getByRole("radio", { name: "Windows Authentication" }).check();
  await expect(form.getByLabel("Login", { exact: true })).toBeHidden();
  await expect(form.getByLabel("Password", { exact: true })).toBeHidden();

  // Public Web Address: the browser calls {address}api/configuration/TestPublicWebAddress.
  const address = form.getByLabel("Public Web Address", { exact: true });
  await address.fill("");
  await expect(form.getByRole("button", { name: "Test Public Web Address" })).toBeDisabled();
  await address.fill(new URL(page.url()).origin.replace(/^http:\/\//, ""));
  await form.getByRole("button", { name: "Test Public Web Address" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Connection successfully established" })).toBeVisible();
  await address.fill("http://127.0.0.1:9");
  await form.getByRole("button", { name: "Test Public Web Address" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Test Connection Failed" }).filter({ hasText: "127.0.0.1:9/api/configuration/TestPublicWebAddress" })).toBeVisible();
  await address.fill(`${new URL(page.url()).origin}/`);

  await form.getByRole("radio", { name: "Test" }).check();
  await form.getByLabel("COM PROD ID", { exact: true }).fill("Portal.History.Prod");
  await form.getByLabel("COM TEST ID", { exact: true }).fill("Portal.History.Test");
  await dbName.fill("postgres");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/core-settings-portal-saved.png`, fullPage: true });
  await page.reload();
  await expect(form.getByLabel("COM TEST ID", { exact: true })).toHaveValue("Portal.History.Test");
  await expect(form.getByRole("radio", { name: "Test" })).toBeChecked();
  await expect(form.getByRole("radio", { name: "Windows Authentication" })).toBeChecked();

  // Two admins: the later save gets the 409 flow, Reload shows what was saved.
  await saveElsewhere(page, "CorePortal", { TestComClassName: "Someone.Else" });
  await form.getByLabel("COM PROD ID", { exact: true }).fill("Mine.Prod");
  await form.getByRole("button", { name: "Save" }).click();
  const conflict = form.getByRole("alert").filter({ hasText: "Someone else saved this page after you opened it" });
  await expect(conflict).toBeVisible();
  await conflict.getByRole("button", { name: "Reload" }).click();
  await expect(form.getByLabel("COM TEST ID", { exact: true })).toHaveValue("Someone.Else");
  await expect(form.getByLabel("COM PROD ID", { exact: true })).toHaveValue("Portal.History.Prod");
});

test("MagView: modes, connection types (FoxPro forces DMZ off), tests disabled while empty, path and proxy tests, required fields, save and reload", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/general/magview");
  const form = page.getByRole("form", { name: "MagView" });
  await form.getByLabel("Mode", { exact: true }).selectOption("MagViewDesktop");
  await form.getByLabel("Data connection type", { exact: true }).selectOption("SQL");
  const dmz = form.getByLabel("DMZ mode", { exact: true });
  await dmz.check();
  const proxy = form.getByLabel("Proxy application web address", { exact: true });
  await proxy.fill("");
  await expect(form.getByRole("button", { name: "Test Proxy Address" })).toBeDisabled();
  await proxy.fill(new URL(page.url()).origin);
  await form.getByRole("button", { name: "Test Proxy Address" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Connection successfully established" })).toBeVisible();
  await proxy.fill("http://127.0.0.1:9");
  await form.getByRole("button", { name: "Test Proxy Address" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "Test Connection Failed" })).toBeVisible();
  await proxy.fill(new URL(page.url()).origin);
  // FoxPro: DMZ off and the SQL block gone.
  await form.getByLabel("Data connection type", { exact: true }).selectOption("FOXPRO");
  await expect(dmz).toBeHidden();
  await expect(form.getByRole("group", { name: "SQL Server" })).toBeHidden();
  await form.getByLabel("Data connection type", { exact: true }).selectOption("SQL");
  await expect(dmz).not.toBeChecked();

  const path = form.getByLabel("MagView Path", { exact: true });
  await path.fill("");
  await expect(form.getByRole("button", { name: "Test Path" })).toBeDisabled();
  await path.fill("/srv/../etc");
  await form.getByRole("button", { name: "Test Path" }).click();
  await expect(form.getByRole("alert").filter({ hasText: "The path may not contain '..'" })).toBeVisible();
  await path.fill("/tmp");
  await form.getByRole("button", { name: "Test Path" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Connection successfully established" })).toBeVisible();

  // Required fields: the messages under the fields and the toast.
  await form.getByLabel("Server Name", { exact: true }).fill("");
  await form.getByLabel("Scheduler appointment type", { exact: true }).fill("");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(form.getByText("Server name is required")).toBeVisible();
  await expect(form.getByText("Scheduler appointment type is required")).toBeVisible();
  await axeClean(page);

  await form.getByLabel("Server Name", { exact: true }).fill("127.0.0.1:5432");
  await form.getByLabel("Database Name", { exact: true }).fill("postgres");
  await form.getByRole("radio", { name: "SQL Server Authentication" }).check();
  await form.getByLabel("Login", { exact: true }).fill("postgres");
  await form.getByLabel("Password", { exact: true }).fill("e2e-unused");
  await form.getByRole("button", { name: "Test SQL Connection" }).click();
  await expect(form.getByRole("status").filter({ hasText: /^Connection successfully established$/ })).toBeVisible();
  await form.getByLabel("Scheduler appointment type", { exact: true }).fill("Screening Mammo");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("Scheduler appointment type", { exact: true })).toHaveValue("Screening Mammo");
  await expect(form.getByLabel("DMZ mode", { exact: true })).not.toBeChecked();

  // LuminaryOne: its URL alone, with its test.
  await form.getByLabel("Mode", { exact: true }).selectOption("LuminaryOne");
  await expect(form.getByLabel("MagView Path", { exact: true })).toBeHidden();
  await expect(form.getByRole("button", { name: "Test LuminaryOne URL" })).toBeDisabled();
  await form.getByLabel("LuminaryOne URL", { exact: true }).fill(new URL(page.url()).origin);
  await form.getByRole("button", { name: "Test LuminaryOne URL" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Connection successfully established" })).toBeVisible();
  await form.getByLabel("Mode", { exact: true }).selectOption("MagViewDesktop");
});

test("Notifications: notices, write-only secrets, invalid form, save and reload, test email and SMS through the outbox", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/general/notifications");
  await expect(page.getByRole("note").filter({ hasText: "without restarting a service" })).toBeVisible();
  const mail = page.getByRole("form", { name: "Notification Settings" });
  const service = page.getByRole("form", { name: "Email Service" });
  await expect(service.getByLabel("Logging mode", { exact: true })).toBeVisible();
  // Secrets are never sent back: the token field is empty and says a value is kept.
  await expect(mail.getByLabel("Auth token", { exact: true })).toHaveValue("");

  const from = mail.getByLabel("Email from", { exact: true });
  const original = await from.inputValue();
  await from.fill("not an address");
  await mail.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(mail.getByText("Enter a valid email address")).toBeVisible();
  await axeClean(page);
  await from.fill(original);
  await mail.getByLabel("Email errors", { exact: true }).check();
  await mail.getByLabel("Send errors to", { exact: true }).fill("errors@demo-imaging.example");
  await mail.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.reload();
  await expect(mail.getByLabel("Send errors to", { exact: true })).toHaveValue("errors@demo-imaging.example");

  await service.getByLabel("Logging mode", { exact: true }).selectOption("DEBUG");
  await service.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.reload();
  await expect(service.getByLabel("Logging mode", { exact: true })).toHaveValue("DEBUG");

  // A test email and SMS through the real outbox and loopback sinks.
  const to = `core-settings-${Date.now()}@demo-imaging.example`;
  await page.getByLabel("Test email address", { exact: true }).fill(to);
  await page.getByRole("button", { name: "Send test email" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Sent. The provider answered:" })).toBeVisible();
  await expect.poll(() => mails(to).length).toBe(1);
  await page.getByLabel("Test phone number", { exact: true }).fill("call me");
  await page.getByRole("button", { name: "Send test SMS" }).click();
  await expect(page.getByText("Enter a phone number (digits, optionally starting with +)")).toBeVisible();
  await page.getByLabel("Test phone number", { exact: true }).fill("+1 555 010 2030");
  await page.getByRole("button", { name: "Send test SMS" }).click();
  await expect(page.getByRole("status").filter({ hasText: "201" })).toBeVisible();
});

test("Timer Service: status and read-only facts, the connection warning, only two fields saved", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/general/timer-service");
  await expect(page.getByText("The timer service connection string must match the portal database connection string")).toBeVisible();
  // The test portals run no --notifications-engine: no instance may run the engine (spec 03 §4).
  await expect(page.getByRole("table", { name: "Timer service" })).toContainText("not installed");
  const facts = page.locator("dl.facts");
  await expect(facts).toContainText("Database Name");
  const form = page.getByRole("form", { name: "Timer Service settings" });
  const url = form.getByLabel("Notifications API Url", { exact: true });
  await url.fill("portal/api");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(form.getByText("Must start with http:// or https://")).toBeVisible();
  await axeClean(page);
  await url.fill("https://portal.example/api/");
  const append = form.getByLabel("Append Only Mode", { exact: true });
  const was = await append.isChecked();
  await append.setChecked(!was);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.reload();
  await expect(url).toHaveValue("https://portal.example/api/");
  await expect(append).toBeChecked({ checked: !was });
});

test("Core Settings pages at 1280, 820 and 390 px", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "staff", "manager");
  for (const tab of ["portal", "magview", "notifications", "timer-service"]) {
    for (const width of [1280, 820, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/admin/core-settings/general/${tab}`);
      await expect(page.getByRole("button", { name: "Save" }).first()).toBeVisible();
      await page.screenshot({ path: `${SCREENSHOTS}/core-settings-${tab}-${width}.png`, fullPage: true });
      // The whole page at every width, the shell's narrow-screen user menu included.
      await axeClean(page);
    }
  }
});
