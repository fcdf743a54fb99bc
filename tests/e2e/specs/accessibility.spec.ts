import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PATIENT_STATE, STAFF_STATE } from "./helpers";

// axe-core's WCAG 2.2 A/AA rules on the main screens: no finding at all, whatever its impact
// (issue 20: the helper every spec calls).
async function expectAccessible(page: Page) {
  await expectNoAxeViolations(page);
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
