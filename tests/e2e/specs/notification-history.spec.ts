import { expect, test } from "./fixtures";
import { expectNoAxeViolations, STAFF_STATE } from "./helpers";

test.use({ storageState: STAFF_STATE });
// An axe pass per screen (and here a wait for the list to read itself again): room for a loaded machine.
test.describe.configure({ timeout: 90_000 });

// Delivery itself (a resend reaching a real SMTP server, then listed) is covered by
// tests/api/tests/notification_history.rs; the demo portal has no mail server configured, so
// nothing it queues is ever delivered and the list stays empty here.
test("Notification History shows the spec's columns, newest first, and keeps its state in the address", async ({ page }) => {
  await page.goto("/admin/notification-history");
  await expect(page.getByRole("heading", { level: 1, name: "Notification History" })).toBeVisible();
  const table = page.getByRole("table", { name: "Notification History" });
  for (const header of ["Date", "MRN", "Sent to", "Type"]) {
    await expect(table.getByRole("columnheader", { name: new RegExp(header) })).toBeVisible();
  }
  await expect(table.getByRole("columnheader", { name: /Date/ })).toHaveAttribute("aria-sort", "descending");
  // Paged by the server (spec 01 §9) and read again by itself (spec 01 §2.8 "auto-refreshes").
  await expect(page.getByRole("combobox", { name: "Rows per page" })).toHaveValue("10");
  const refreshed = await page.waitForRequest((r) => r.url().includes("/api/NotificationHistory/datatables"), { timeout: 30_000 });
  expect(JSON.parse(refreshed.postData() ?? "{}")).toMatchObject({ PageIndex: 0, PageSize: 10 });
  await expectNoAxeViolations(page);
  // Other specs' deliveries may be listed already; a search that nothing matches is empty and
  // stays in the address across a reload.
  await page.getByRole("searchbox", { name: "Search" }).fill("no-such-recipient");
  await expect(page).toHaveURL(/notifications_q=no-such-recipient/);
  await expect(table).toContainText("No data available");
  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue("no-such-recipient");
  await expect(table).toContainText("No data available");
});
