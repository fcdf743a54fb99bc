import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "./fixtures";
import { SCREENSHOTS, signIn } from "./helpers";

// Site Usage Report (spec 03 §2, §4, §9): the previous full week by default, the range and the
// card in the address, the cards, the per-day table and chart, a day's details (DD/MM/YYYY) with
// the visits this browser just made (address, system, browser), Back to Summary.

async function axeClean(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

// Axe runs and screenshots at three widths: more than the default 30 s on a busy machine.
test.setTimeout(180_000);

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;

test("summary: previous week by default, today's visits, cards switch, details of the day", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto("/admin/site-usage-report");
  // Default: the week before this one, Sunday to Saturday (in this browser's zone).
  const today = new Date();
  const sunday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - today.getDay() - 7);
  const saturday = new Date(sunday.getFullYear(), sunday.getMonth(), sunday.getDate() + 6);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(iso(sunday));
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(iso(saturday));
  await expect(page.getByRole("button", { name: /Total Visits/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText("Peak Visit Time")).toBeVisible();
  await expect(page.getByRole("table").getByRole("row")).toHaveCount(8);

  // Today: the pages this browser opened are site visits.
  await page.getByLabel("From", { exact: true }).fill(iso(today));
  await page.getByLabel("To", { exact: true }).fill(iso(today));
  await expect(page).toHaveURL(new RegExp(`dateFrom=${iso(today)}&dateTo=${iso(today)}&type=0`));
  const visits = page.getByRole("button", { name: /Total Visits/ });
  await expect(visits).not.toContainText("–");
  await expect(visits).toContainText(/\d+/);
  await expect(page.getByRole("figure").getByText("Total Visits")).toBeVisible();
  // The visx chart: one bar per day of the range, with the day's label on the axis.
  await expect(page.locator(".usage-chart svg rect.usage-bar")).toHaveCount(1);
  await expect(page.getByText(/\d{1,2}:00 (AM|PM) - \d{1,2}:00 (AM|PM)/)).toBeVisible();
  await axeClean(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/site-usage-summary-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: /Total Portal Documents Opened/ }).click();
  await expect(page).toHaveURL(/type=13/);
  await expect(page.getByRole("button", { name: /Total Portal Documents Opened/ })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByRole("columnheader", { name: "Documents Opened" })).toBeVisible();
  await page.getByRole("button", { name: /Total Visits/ }).click();

  const dd = `${String(today.getDate()).padStart(2, "0")}/${String(today.getMonth() + 1).padStart(2, "0")}/${today.getFullYear()}`;
  await page.getByRole("table").getByRole("link").first().click();
  await expect(page).toHaveURL(new RegExp(`/admin/site-usage-report/details\\?date=${dd.replace(/\//g, "%2F")}&visitevent=true`));
  await expect(page.getByRole("heading", { name: "Site Visit Details" })).toBeVisible();
  const table = page.getByRole("table", { name: "Site Visit Details" });
  for (const header of ["Data Access", "IP Address", "Operating System", "Browser"]) await expect(table.getByRole("columnheader", { name: header })).toBeVisible();
  await expect(table.getByRole("cell", { name: "127.0.0.1" }).first()).toBeVisible();
  await expect(table.getByRole("cell", { name: /^Chrom/ }).first()).toBeVisible();
  await expect(page.getByLabel("Day", { exact: true })).toHaveValue(iso(today));
  await axeClean(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/site-usage-details-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  // Back to Summary returns to the week and card the details were opened from.
  await page.getByRole("button", { name: "Back to Summary" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/site-usage-report\\?dateFrom=${iso(today)}&dateTo=${iso(today)}&type=0$`));
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(iso(today));
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(iso(today));
  await page.goto(`/admin/site-usage-report/details?date=${encodeURIComponent(dd)}&visitevent=false`);
  await expect(page.getByRole("heading", { name: "Opened Documents Details" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Opened Documents Details" }).getByRole("columnheader", { name: "Document ID" })).toBeVisible();
  await page.getByRole("button", { name: "Back to Summary" }).click();
  await expect(page).toHaveURL(/\/admin\/site-usage-report\?type=13$/);
});
