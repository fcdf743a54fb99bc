import { expect, test } from "./fixtures";
import { expectHome, expectNoAxeViolations, PASSWORD, signIn } from "./helpers";

// spec 01 §2.9, §4, §5: change my password. Uses the demo account alex.kim, which no other spec
// signs in with (a change ends the account's other sessions).
const NEW_PASSWORD = "Changed#2027";

test("a signed-in user changes the password with the live requirement panel", async ({ page }) => {
  await signIn(page, "staff", "alex.kim");
  await expectHome(page);
  await page.goto("/account/change-password");
  await expect(page.getByRole("heading", { level: 1, name: "User Change Password" })).toBeVisible();

  const panel = page.getByRole("complementary", { name: "Password requirements" });
  // Neutral until the user types (issue 20): nothing is red on an empty form.
  for (const line of ["At least 8 characters", "At least 1 number", "At least 1 uppercase letter", "At least 1 special character"]) {
    await expect(panel.getByRole("listitem").filter({ hasText: line })).toContainText("(to do)");
  }
  await expectNoAxeViolations(page);
  const newPassword = page.getByLabel("New password", { exact: true });
  await newPassword.fill("abcdefgh");
  await expect(panel.getByRole("listitem").filter({ hasText: "At least 8 characters" })).toContainText("(met)");
  await expect(panel.getByRole("listitem").filter({ hasText: "At least 1 number" })).toContainText("(not met)");

  // The form's own messages (wasm-core validateChangeMyPassword).
  await page.getByRole("button", { name: "Change", exact: true }).click();
  await expect(page.getByText("Old password is required")).toBeVisible();
  await expect(page.getByText("Password confirmation is required")).toBeVisible();
  // The rules are shown once, in the panel; the field points to it.
  await expect(page.getByText("The new password does not meet the password requirements.")).toBeVisible();
  await expect(page.getByText("Password must contain at least 1 number")).toHaveCount(0);
  await newPassword.fill(NEW_PASSWORD);
  await page.getByLabel("Confirm password", { exact: true }).fill("Changed#2028");
  await expect(page.getByText("Passwords are not equal")).toBeVisible();
  await page.getByLabel("Confirm password", { exact: true }).fill(NEW_PASSWORD);
  for (const line of ["At least 8 characters", "At least 1 number", "At least 1 uppercase letter", "At least 1 special character"]) {
    await expect(panel.getByRole("listitem").filter({ hasText: line })).toContainText("(met)");
  }

  // Show/hide.
  await page.getByRole("button", { name: "Show new password" }).click();
  await expect(newPassword).toHaveAttribute("type", "text");

  // The server checks the old password.
  await page.getByLabel("Old password", { exact: true }).fill("Wrong!2026");
  await page.getByRole("button", { name: "Change", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Old password is incorrect" })).toBeVisible();

  await page.getByLabel("Old password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Change", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Password changed" });
  await expect(dialog).toContainText("Password was changed successfully!");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);

  // Signed out on the server too; the new password is the one that works now.
  const perms = await page.request.get("/api/accountApi/permissionsJson");
  expect((await perms.json()).IsUserLoggedIn).toBe(false);
  await signIn(page, "staff", "alex.kim", PASSWORD);
  await expect(page.getByText("The user name or password provided is incorrect.")).toBeVisible();
  await signIn(page, "staff", "alex.kim", NEW_PASSWORD);
  await expectHome(page);
});
