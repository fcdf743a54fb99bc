import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./fixtures";
import { SCREENSHOTS, signIn } from "./helpers";

// Both tests save the demo clinic's HistoryPortal group: run side by side, one would meet the
// other's save as a conflict (which is the second test's subject).
test.describe.configure({ mode: "serial" });

test("History Portal settings: toggle rules, range messages, save (spec 04 §8 message) and reload; the version block", async ({ page }) => {
  await signIn(page, "staff", "manager");
  // Program managers see the version block under the lists, COM compatibility in red when 'False'.
  await page.goto("/admin/history-portal/today");
  const versions = page.getByRole("complementary", { name: "Version information" });
  await expect(versions).toContainText("Portal version");
  const compatible = versions.locator("dd.incompatible");
  if ((await versions.textContent())!.includes("False")) {
    await expect(compatible.first()).toHaveCSS("color", "rgb(180, 35, 24)");
  }

  await page.goto("/admin/history-portal-settings");
  const form = page.getByRole("form", { name: "History Portal Settings" });
  await expect(form).toBeVisible();
  const master = form.getByLabel("Send history portal notifications");
  const email = form.getByRole("group", { name: "History portal notifications" }).getByLabel("By email");
  const sms = form.getByRole("group", { name: "History portal notifications" }).getByLabel("By SMS");
  // Master off -> both channels cleared; master on with none -> email on, SMS off.
  if (await master.isChecked()) await master.uncheck();
  await expect(email).not.toBeChecked();
  await expect(sms).not.toBeChecked();
  await master.check();
  await expect(email).toBeChecked();
  await expect(sms).not.toBeChecked();
  // Both channels off -> master off.
  await email.uncheck();
  await expect(master).not.toBeChecked();
  // 'I am Here': master on with none -> both on.
  const iam = form.getByRole("group", { name: "'I am Here' notifications" });
  const iamMaster = form.getByLabel("Send 'I am Here' notifications");
  if (await iamMaster.isChecked()) await iamMaster.uncheck();
  await iamMaster.check();
  await expect(iam.getByLabel("By email")).toBeChecked();
  await expect(iam.getByLabel("By SMS")).toBeChecked();

  // Ranges: a bad value shows its message and nothing is saved.
  await form.getByLabel("Reminder end time (hour)").fill("25");
  await form.getByLabel("Maximum ready-for-exam tries (-1 unlimited)").fill("-2");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid")).toBeVisible();
  await expect(form.getByText("Must be between 0 and 24")).toBeVisible();
  await expect(form.getByText("Must be between -1 and 99")).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/history-portal-settings-desktop.png`, fullPage: true });
  // axe-core's WCAG 2.1 A/AA rules on the form with its messages showing: no serious or critical findings.
  const axe = await new AxeBuilder({ page }).include("form").withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);

  await form.getByLabel("Reminder end time (hour)").fill("18");
  await form.getByLabel("Maximum ready-for-exam tries (-1 unlimited)").fill("5");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Configuration has been successfully saved!")).toBeVisible();
  await page.reload();
  await expect(form.getByLabel("Maximum ready-for-exam tries (-1 unlimited)")).toHaveValue("5");
  await expect(iam.getByLabel("By SMS")).toBeChecked();
  // Put the limit back for the other tests (unlimited).
  await form.getByLabel("Maximum ready-for-exam tries (-1 unlimited)").fill("-1");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Configuration has been successfully saved!")).toBeVisible();
});

test("two admins on one settings page: the later save is refused (409) and Reload shows what was saved", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/history-portal-settings");
  const form = page.getByRole("form", { name: "History Portal Settings" });
  const until = form.getByLabel("Remind until X hours before");
  await expect(until).toHaveValue(/\d+/);
  const original = await until.inputValue();

  // Someone else saves the group after this page loaded it (the same API the page uses).
  const csrf = (await page.context().cookies()).find((c) => c.name === "portal_csrf")!.value;
  const current = await (await page.request.get("/api/configurationForm/HistoryPortal")).json();
  const theirs = String(Number(original) + 1);
  const saved = await page.request.put("/api/configurationForm/HistoryPortal", {
    headers: { "X-CSRF-Token": csrf },
    data: { Version: current.Version, Settings: { ...current.Settings, HistoryPortalRemindUntilXHoursBeforeAppt: Number(theirs) } },
  });
  expect(saved.status()).toBe(200);

  // This page's save is refused: nothing of it is stored, and it says so.
  await until.fill(String(Number(original) + 2));
  await form.getByRole("button", { name: "Save" }).click();
  const conflict = form.getByRole("alert").filter({ hasText: "Someone else saved this page after you opened it" });
  await expect(conflict).toBeVisible();
  await expect(form.getByRole("button", { name: "Save" })).toBeDisabled();
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  await conflict.getByRole("button", { name: "Reload" }).click();
  await expect(until).toHaveValue(theirs);
  await expect(conflict).toBeHidden();

  // Put the value back through the page.
  await until.fill(original);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Configuration has been successfully saved!")).toBeVisible();
});
