import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PATIENT_STATE, SCREENSHOTS, signIn, STAFF_STATE } from "./helpers";

// Full-page pictures of the main screens at desktop and phone widths, for a person to look at
// (tests/e2e/screenshots/, not committed). Each also checks the page rendered.
const WIDTHS = { desktop: 1280, mobile: 400 };

async function shoot(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
}

for (const [label, width] of Object.entries(WIDTHS)) {
  test.describe(`${label} screenshots`, () => {
    test.use({ viewport: { width, height: 800 } });

    test(`login (${label})`, async ({ page }) => {
      await page.goto("/patient/login");
      await expect(page.getByRole("button", { name: "Log In" })).toBeVisible();
      await shoot(page, `login-${label}`);
      await page.getByRole("button", { name: "Log In" }).click();
      await expect(page.getByText("Password is required")).toBeVisible();
      await expectNoAxeViolations(page);
      await shoot(page, `login-errors-${label}`);
    });

    test.describe(() => {
      test.use({ storageState: PATIENT_STATE });
      test(`patient home (${label})`, async ({ page }) => {
        await page.goto("/home");
        await expect(page.getByRole("table", { name: "Next appointments" }).locator("tbody tr").first()).not.toContainText("Loading");
        await expectNoAxeViolations(page);
        await shoot(page, `patient-home-${label}`);
      });
    });

    test.describe(() => {
      test.use({ storageState: STAFF_STATE });
      test(`staff history portal (${label})`, async ({ page }) => {
        await page.goto("/admin/history-portal/all?all_f_DateMode=range&all_f_DateFrom=2000-01-01&all_f_DateTo=2099-12-31");
        await expect(page.getByRole("table", { name: "All History Surveys List" }).locator("tbody tr")).toHaveCount(10);
        await expectNoAxeViolations(page);
        await shoot(page, `history-portal-${label}`);
        if (label === "mobile") {
          await page.getByRole("button", { name: "Toggle menu" }).click();
          await expectNoAxeViolations(page);
          await shoot(page, `history-portal-menu-${label}`);
        }
      });
    });
  });
}

test("program manager menu with a settings group open (desktop)", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.getByRole("navigation", { name: "Main menu" }).getByRole("button", { name: "Portal Core" }).click();
  await expect(page.getByRole("navigation", { name: "Main menu" }).getByRole("link").nth(8)).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "manager-menu-desktop");
});
