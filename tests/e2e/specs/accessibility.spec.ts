import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { PATIENT_STATE, STAFF_STATE } from "./helpers";

// axe-core's WCAG 2.1 A/AA rules on the main screens: no serious or critical findings.
async function expectAccessible(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const serious = result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(serious).toEqual([]);
}

test("the login page, with its messages showing", async ({ page }) => {
  await page.goto("/patient/login");
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText("Password is required")).toBeVisible();
  await expectAccessible(page);
});

test.describe(() => {
  test.use({ storageState: PATIENT_STATE });
  test("the patient home", async ({ page }) => {
    await page.goto("/home");
    await expect(page.getByRole("table", { name: "Next appointments" }).locator("tbody tr").first()).not.toContainText("Loading");
    await expectAccessible(page);
  });
});

test.describe(() => {
  test.use({ storageState: STAFF_STATE });
  test("the History Portal list, and the error dialog", async ({ page }) => {
    await page.goto("/admin/history-portal/all?all_f_DateMode=range&all_f_DateFrom=2000-01-01&all_f_DateTo=2099-12-31");
    await expect(page.getByRole("table", { name: "All History Surveys List" }).locator("tbody tr")).toHaveCount(10);
    await expectAccessible(page);
    await page.goto("/admin/history-portal/all?all_sort=NotAColumn");
    await expect(page.getByRole("dialog")).toBeVisible();
    await expectAccessible(page);
  });
});
