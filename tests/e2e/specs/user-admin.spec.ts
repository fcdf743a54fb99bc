import { expect, test } from "./fixtures";
import { expectHome, expectNoAxeViolations, signIn } from "./helpers";

// Several screens with an axe pass each: room for a loaded machine.
test.describe.configure({ timeout: 90_000 });

// spec 02 §2.10, §4, §5, §6, §8: user administration in the browser. The manager creates and
// edits a user of its own (so no other spec's account changes), then impersonates a patient and
// cancels the impersonation.

test("client admin sees the users read-only", async ({ page }) => {
  await signIn(page, "staff", "clientadmin");
  await expectHome(page);
  await page.goto("/admin/user");
  await expect(page).toHaveURL(/\/admin\/user\/view-users$/);
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();
  const table = page.getByRole("table", { name: "Users" });
  await expect(table.getByRole("columnheader", { name: "MRN" })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "jane.doe" })).toContainText("100001");
  await expect(table.getByRole("row").filter({ hasText: "jane.doe" })).toContainText("Yes");
  await expect(page.getByRole("button", { name: "Add User" })).toHaveCount(0);
  await expect(table.getByRole("button", { name: /^Edit / })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a program manager creates, edits and impersonates users", async ({ page }) => {
  test.setTimeout(60_000);
  const username = `e2e.user.${Date.now()}`;
  await signIn(page, "staff", "manager");
  await expectHome(page);
  await page.goto("/admin/user/manage-users");
  await expect(page.getByRole("heading", { level: 1, name: "User Management" })).toBeVisible();
  const table = page.getByRole("table", { name: "Users" });
  await expect(table.getByRole("columnheader", { name: "MRN" })).toBeVisible();

  // The MRN column only for Patient; roles are offered by their labels (issue 20).
  await expect(page.getByRole("combobox", { name: "Role", exact: true }).locator("option", { hasText: "Front Desk" })).toHaveCount(1);
  await expect(page.getByRole("combobox", { name: "Role", exact: true }).locator("option", { hasText: "FrontDesk" })).toHaveCount(0);
  await page.getByRole("combobox", { name: "Role", exact: true }).selectOption("FrontDesk");
  await expect(table.getByRole("row").filter({ hasText: "frontdesk" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "MRN" })).toHaveCount(0);

  // Add User: the form rules and the 'Form is invalid' toast.
  await page.getByRole("button", { name: "Add User" }).click();
  const modal = page.getByRole("dialog", { name: "Add User" });
  await modal.getByLabel("Role").selectOption("FrontDesk");
  await modal.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Form is invalid" })).toBeVisible();
  await expect(modal.getByText("Username is required")).toBeVisible();
  await expect(modal.getByText("First Name is required")).toBeVisible();
  await expectNoAxeViolations(page);
  await modal.getByLabel("First Name").fill("Robin");
  await modal.getByLabel("Last Name").fill("Hart");
  await modal.getByLabel("Username").fill(username);
  await modal.getByLabel("Email").fill(`${username}@example.org`);
  await modal.getByLabel("Password").fill("Welcome#2026");
  await modal.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "User successfully created." })).toBeVisible();
  const row = table.getByRole("row").filter({ hasText: username });
  await expect(row).toContainText("Robin");

  // Edit: unsaved changes ask before closing; then save.
  await row.getByRole("button", { name: `Edit ${username}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit User" });
  await expect(edit.getByLabel("Username")).toHaveValue(username);
  await edit.getByLabel("Last Name").fill("Hart-Lee");
  await edit.getByRole("tab", { name: "Change Password" }).click();
  const confirm = page.getByRole("dialog", { name: "Unsaved changes" });
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Keep editing" }).click();
  await expect(edit.getByLabel("Last Name")).toHaveValue("Hart-Lee");
  await edit.getByLabel("Is Active").uncheck();
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "User successfully updated." })).toBeVisible();
  await expect(row).toContainText("Hart-Lee");
  await expect(row).toContainText("No");

  // Change Password tab.
  await row.getByRole("button", { name: `Edit ${username}` }).click();
  await edit.getByRole("tab", { name: "Change Password" }).click();
  await edit.getByLabel("New Password").fill("Other#2027");
  await edit.getByLabel("Repeat Password").fill("Other#2027");
  await edit.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Password successfully updated." })).toBeVisible();
  await edit.getByRole("button", { name: "Cancel" }).click();

  // Impersonate Maria (a patient), then cancel with confirmation.
  await page.getByRole("combobox", { name: "Role", exact: true }).selectOption("Patient");
  await table.getByRole("row").filter({ hasText: "maria.garcia" }).getByRole("button", { name: "Impersonate maria.garcia" }).click();
  await page.getByRole("dialog", { name: "Impersonate" }).getByRole("button", { name: "Impersonate" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("button", { name: "Cancel Impersonation" })).toBeVisible();
  const perms = await (await page.request.get("/api/accountApi/permissionsJson")).json();
  expect(perms.IsPatient && perms.IsImpersonated).toBe(true);
  await page.getByRole("button", { name: "Cancel Impersonation" }).click();
  await page.getByRole("dialog", { name: "Cancel Impersonation" }).getByRole("button", { name: "Yes, cancel" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("button", { name: "Cancel Impersonation" })).toHaveCount(0);
  const back = await (await page.request.get("/api/accountApi/permissionsJson")).json();
  expect(back.IsProgramManager).toBe(true);
});
