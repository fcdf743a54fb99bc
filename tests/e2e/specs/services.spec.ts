import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { SCREENSHOTS, signIn } from "./helpers";

// Services management (spec 03 §2 "Email service actions", Timer Service "start, stop and status
// actions"; §4 "Service status"; §8 toasts and the 'Action error' dialog), on the demo portal,
// which runs no --notifications-engine (so the Timer Service is not installed). The Email Service
// sends the other specs' mail: it is only restarted here, never left stopped.
test.describe.configure({ mode: "serial" });

async function axeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("Timer Service page: not installed, stop, start and restart with their toasts; stopped stays stopped on reload", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/general/timer-service");
  const timer = page.getByRole("table", { name: "Timer service" });
  await expect(timer.getByRole("row", { name: /Timer Service/ })).toContainText("not installed");
  await timer.getByRole("button", { name: "Start Timer Service", exact: true }).click();
  await expect(page.getByText("Timer Service is not installed.")).toBeVisible();

  const others = page.getByRole("table", { name: "Other background services" });
  const housekeeping = others.getByRole("row", { name: /Housekeeping/ });
  await expect(housekeeping).toContainText(/STARTED|RESTARTED/);
  await others.getByRole("button", { name: "Stop Housekeeping", exact: true }).click();
  await expect(page.getByText("Housekeeping was Stopped!")).toBeVisible();
  await expect(housekeeping).toContainText("STOPPED");
  await axeClean(page);
  await page.reload();
  await expect(others.getByRole("row", { name: /Housekeeping/ })).toContainText("STOPPED");
  await others.getByRole("button", { name: "Start Housekeeping", exact: true }).click();
  await expect(page.getByText("Housekeeping was Started!")).toBeVisible();
  await expect(others.getByRole("row", { name: /Housekeeping/ })).toContainText("STARTED");

  await others.getByRole("button", { name: "Restart Survey Expiry", exact: true }).click();
  await expect(page.getByText("Survey Expiry was Restarted!")).toBeVisible();
  const expiry = others.getByRole("row", { name: /Survey Expiry/ });
  await expect(expiry).toContainText("RESTARTED");
  await expect(expiry).not.toContainText("No instance is running it now.");
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/services-timer-service-${width}.png`, fullPage: true });
  }
});

test("Notifications page: email service actions, and the 'Action error' dialog when an action fails", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/core-settings/general/notifications");
  const email = page.getByRole("table", { name: "Email service" });
  await expect(email.getByRole("row", { name: /Email Service/ })).toContainText(/STARTED|RESTARTED/);
  await email.getByRole("button", { name: "Restart Email Service", exact: true }).click();
  await expect(page.getByText("Email Service was Restarted!")).toBeVisible();
  await expect(email.getByRole("row", { name: /Email Service/ })).toContainText("RESTARTED");

  // A failed call: the database gave up (the store's 503 after its retries), which a browser
  // test cannot bring about on demand; the API tests make the real failures happen.
  await page.route("**/api/serviceManagement/stopService", (route) =>
    route.fulfill({
      status: 503,
      json: { Title: "Service Unavailable", Message: "The database was busy and nothing was saved. Please try again.", ErrorId: "e2e-503" },
    }),
  );
  await email.getByRole("button", { name: "Stop Email Service", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Stop error" });
  await expect(dialog).toContainText("The database was busy and nothing was saved. Please try again.");
  await axeClean(page);
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toBeHidden();
  await page.unroute("**/api/serviceManagement/stopService");
  // Nothing was stopped.
  await expect(email.getByRole("row", { name: /Email Service/ })).toContainText("RESTARTED");
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/services-notifications-${width}.png`, fullPage: true });
  }
});
