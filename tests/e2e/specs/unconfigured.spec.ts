import { expect, test } from "./fixtures";
import { expectNoAxeViolations } from "./helpers";

// spec 01 §2.1, spec 02 §2.11: an unconfigured portal leads every route to the setup wizard.
for (const path of ["/", "/home", "/patient/login", "/admin/history-portal/all"]) {
  test(`an unconfigured portal sends ${path} to /init`, async ({ page }) => {
    await page.goto(path);
    await expect(page).toHaveURL(/\/init$/);
    await expect(page.getByRole("heading", { name: "Installation complete" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
}

test("the landing page links to the configuration", async ({ page }) => {
  await page.goto("/init");
  await page.getByRole("link", { name: "Go to configuration" }).click();
  await expect(page).toHaveURL(/\/init\/configuration$/);
  await expect(page.getByRole("heading", { name: "Configuration" })).toBeVisible();
});
