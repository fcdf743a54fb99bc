import { expect, test } from "./fixtures";
import { expectHome, expectNoAxeViolations, signIn } from "./helpers";

// Several screens with an axe pass each: room for a loaded machine.
test.describe.configure({ timeout: 90_000 });

// spec 02 §2.10, §4 "Demo reset", §5 "Role", §6, §7.3, §8: the Regular/Demo view mode and the
// demo reset (the demo clinic runs with EnableDemoMode on and one demo account, demo.patient),
// and the roles page reached from User Management.

test("a program manager switches to Demo view mode and resets a demo account", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await expectHome(page);
  await page.goto("/admin/user/manage-users");
  const table = page.getByRole("table", { name: "Users" });
  const viewMode = page.getByRole("combobox", { name: "View mode" });
  await expect(viewMode).toHaveValue("Regular");
  await expect(table.getByRole("row").filter({ hasText: "jane.doe" })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: "demo.patient" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: /for demo$/ })).toHaveCount(0);

  await viewMode.selectOption("Demo");
  await expect(page).toHaveURL(/viewMode/);
  const demoRow = table.getByRole("row").filter({ hasText: "demo.patient" });
  await expect(demoRow).toContainText("190001");
  await expect(table.getByRole("row").filter({ hasText: "jane.doe" })).toHaveCount(0);

  await demoRow.getByRole("button", { name: "Reset demo.patient for demo" }).click();
  const confirm = page.getByRole("dialog", { name: "Demo reset" });
  await expect(confirm).toContainText("Dee Demo");
  await expectNoAxeViolations(page);
  await confirm.getByRole("button", { name: "Reset" }).click();
  await expect(page.getByRole("status").filter({ hasText: "User account was successfully reset for demo" })).toBeVisible();
  await expect(confirm).toHaveCount(0);

  // The view mode stays in the address: a reload keeps the Demo list.
  await page.reload();
  await expect(page.getByRole("combobox", { name: "View mode" })).toHaveValue("Demo");
  await expect(table.getByRole("row").filter({ hasText: "demo.patient" })).toBeVisible();
});

test("a client admin sees the view mode but no demo reset", async ({ page }) => {
  await signIn(page, "staff", "clientadmin");
  await expectHome(page);
  await page.goto("/admin/user/view-users");
  await page.getByRole("combobox", { name: "View mode" }).selectOption("Demo");
  await expect(page.getByRole("table", { name: "Users" }).getByRole("row").filter({ hasText: "demo.patient" })).toBeVisible();
  await expect(page.getByRole("button", { name: /for demo$/ })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a program manager adds, edits and deletes a role", async ({ page }) => {
  const name = `Radiologist ${Date.now()}`;
  await signIn(page, "staff", "manager");
  await expectHome(page);
  await page.goto("/admin/user/manage-users");
  await page.getByRole("link", { name: "Roles" }).click();
  await expect(page).toHaveURL(/\/admin\/user\/roles$/);
  await expect(page.getByRole("heading", { level: 1, name: "Roles" })).toBeVisible();
  const table = page.getByRole("table", { name: "Roles" });
  const patient = table.getByRole("row").filter({ hasText: /^Patient/ });
  await expect(patient).toContainText("Yes");
  // Built-in roles and roles in use cannot be deleted.
  await expect(page.getByRole("button", { name: "Delete Patient" })).toHaveCount(0);
  // Role names are shown as words, never as code names (issue 20).
  for (const role of ["Program Manager", "Client Admin", "Front Desk", "Technologist"]) {
    await expect(table.getByRole("cell", { name: role, exact: true }).first()).toBeVisible();
  }
  await expect(table.getByRole("cell", { name: "ProgramManager", exact: true })).toHaveCount(0);
  await expectNoAxeViolations(page);

  await page.getByRole("button", { name: "Add Role" }).click();
  const add = page.getByRole("dialog", { name: "Add Role" });
  await add.getByRole("button", { name: "Save" }).click();
  await expect(add.getByText("Name is required")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Form is invalid" })).toBeVisible();
  await expectNoAxeViolations(page);
  await add.getByLabel("Name").fill(name);
  await expect(add.getByText("Name is required")).toHaveCount(0);
  await add.getByLabel("Description").fill("Reads the images");
  await add.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Role successfully created." })).toBeVisible();
  const row = table.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Reads the images");
  await expect(row).toContainText("No");

  await row.getByRole("button", { name: `Edit ${name}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit Role" });
  await expect(edit.getByLabel("Name")).toHaveValue(name);
  await edit.getByLabel("Description").fill("Reads and reports the images");
  await edit.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Role successfully updated." })).toBeVisible();
  await expect(row).toContainText("Reads and reports the images");

  await row.getByRole("button", { name: `Delete ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete role" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Role successfully deleted." })).toBeVisible();
  await expect(table.getByRole("row").filter({ hasText: name })).toHaveCount(0);
});

test("the patient login offers Forgot Password and no Forgot Username until a username is asked", async ({ page }) => {
  await page.goto("/patient/login");
  await expect(page.getByRole("link", { name: "Forgot Password" })).toHaveAttribute("href", "/patient/forgot-password");
  await expect(page.getByRole("link", { name: "Forgot Username" })).toHaveCount(0);
  // IsCernerOAuthEnabled is off in the demo clinic.
  await expect(page.getByRole("link", { name: "Sign in with your health record" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.goto("/staff/login");
  await expect(page.getByRole("link", { name: "Forgot Password" })).toHaveAttribute("href", "/staff/forgot-password");
});
