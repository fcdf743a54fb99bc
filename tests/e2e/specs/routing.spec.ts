import { expect, test } from "./fixtures";
import { expectNoAxeViolations, STAFF_STATE } from "./helpers";

test.describe("signed in", () => {
  test.use({ storageState: STAFF_STATE });

  test("an unknown path redirects to the root, which opens home", async ({ page }) => {
    await page.goto("/no/such/page");
    await expect(page).toHaveURL(/\/home$/);
    await page.goto("/admin/not-an-area");
    await expect(page).toHaveURL(/\/home$/);
  });

  test("old and short addresses lead to their pages", async ({ page }) => {
    await page.goto("/account");
    await expect(page).toHaveURL(/\/account\/change-password$/);
    await expect(page.getByRole("heading", { level: 1, name: "User Change Password" })).toBeVisible();
    await page.goto("/medicalHistory");
    await expect(page).toHaveURL(/\/medical-history$/);
  });

  test("the survey integrations open on powerscribe-integration, a real page", async ({ page }) => {
    // Issue 17 built the last area a later release held: no placeholder is left.
    await page.goto("/admin/survey-settings/integrations");
    await expect(page).toHaveURL(/\/admin\/survey-settings\/integrations\/powerscribe-integration$/);
    await expect(page.getByRole("heading", { level: 1, name: "Survey Integrations Management" })).toBeVisible();
    // (This spec signs in as the front desk, who may not read the settings: the page's own
    // content is asserted in survey-integrations.spec.ts.)
    await expect(page.getByText("arrives in a later release")).toHaveCount(0);
    // An unknown survey settings tab goes to the packages, not to a placeholder.
    await page.keyboard.press("Escape");
    await page.goto("/admin/survey-settings/no-such-tab");
    await expect(page).toHaveURL(/\/admin\/survey-settings\/package$/);
  });

  test("the user menu links to the account settings", async ({ page }) => {
    await page.goto("/home");
    await page.getByRole("banner").getByRole("button", { expanded: false }).last().click();
    await page.getByRole("link", { name: "Account settings" }).click();
    await expect(page).toHaveURL(/\/account\/change-password$/);
  });

  test("on a narrow screen the menu hides behind a toggle", async ({ page }) => {
    await page.setViewportSize({ width: 800, height: 900 });
    await page.goto("/home");
    const toggle = page.getByRole("button", { name: "Toggle menu" });
    await expect(toggle).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main menu" })).not.toBeInViewport();
    await toggle.click();
    await expect(page.getByRole("navigation", { name: "Main menu" })).toBeInViewport();
    await expectNoAxeViolations(page);
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "History Portal" }).click();
    await expect(page).toHaveURL(/history-portal\/all$/);
    await expect(page.getByRole("navigation", { name: "Main menu" })).not.toBeInViewport();
  });
});

test("a signed-out visitor at an unknown path ends at the patient login", async ({ page }) => {
  await page.goto("/definitely-not-here");
  await expect(page).toHaveURL(/\/patient\/login$/);
});
