import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PATIENT_STATE } from "./helpers";

test("an embedded error page shows the server's message", async ({ page }) => {
  await page.goto("/embed/error/sso/client7/TokenExpired");
  await expect(page.getByRole("main", { name: "Error" })).toContainText("Your link has expired.");
  await expectNoAxeViolations(page);
});

test.describe("signed in", () => {
  test.use({ storageState: PATIENT_STATE });

  test("embed success opens the page's all list with the SSO context", async ({ page }) => {
    await page.goto("/embed/success/client7/ctx123?page=documents");
    await expect(page).toHaveURL(/\/documents\/all\/client7\/ctx123$/);
    await expect(page.getByRole("table", { name: "Letters" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
