import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectHome, expectNoAxeViolations, mainMenu, menuEntry, PASSWORD, signIn } from "./helpers";

interface RoleCase {
  user: string;
  door: "patient" | "staff";
  sees: string[];
  doesNotSee: string[];
}

// spec 01 §2.1 and §6: the menu each role gets.
const ROLES: Record<string, RoleCase> = {
  ProgramManager: {
    user: "manager",
    door: "staff",
    sees: ["Home", "Users", "History Portal", "Notification history", "Site Usage Report", "Audit Logs", "Portal Core", "Survey Settings"],
    doesNotSee: ["Documents", "Medical History"],
  },
  ClientAdmin: {
    user: "clientadmin",
    door: "staff",
    sees: ["Home", "Users", "History Portal", "Notification history"],
    doesNotSee: ["Audit Logs", "Documents", "Site Usage Report"],
  },
  FrontDesk: {
    user: "frontdesk",
    door: "staff",
    sees: ["Home", "History Portal"],
    doesNotSee: ["Users", "Documents", "Audit Logs"],
  },
  "Patient Jane Doe": {
    user: "jane.doe",
    door: "patient",
    sees: ["Home", "Documents", "Appointments", "Medical History"],
    doesNotSee: ["Users", "History Portal", "Audit Logs"],
  },
  "Patient Maria Garcia": {
    user: "maria.garcia",
    door: "patient",
    sees: ["Home", "Documents", "Appointments", "Medical History"],
    doesNotSee: ["Users", "History Portal"],
  },
};

async function displayName(page: Page, run: () => Promise<void>): Promise<string> {
  const response = page.waitForResponse((r) => r.url().endsWith("/api/accountApi/getCurrentUserName"));
  await run();
  return ((await (await response).json()) as { UserName: string }).UserName;
}

for (const [role, c] of Object.entries(ROLES)) {
  test(`${role} signs in, sees the shell and the role's menu, and signs out`, async ({ page }) => {
    const name = await displayName(page, () => signIn(page, c.door, c.user));
    await expectHome(page);
    if (c.user === "jane.doe") expect(name).toBe("Jane Doe");
    if (c.user === "maria.garcia") expect(name).toBe("Maria Garcia");
    await expect(page.getByRole("heading", { name: `Welcome, ${name}` })).toBeVisible();
    await expect(page.getByRole("button", { name: new RegExp(name) })).toBeVisible();

    for (const entry of c.sees) await expect(menuEntry(page, entry), entry).toBeVisible();
    for (const entry of c.doesNotSee) await expect(menuEntry(page, entry), entry).toHaveCount(0);

    await page.getByRole("button", { name: new RegExp(name) }).click();
    await expect(page.getByRole("link", { name: "Account settings" })).toBeVisible();
    await page.getByRole("list", { name: "User menu" }).getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(new RegExp(`/${c.door}/login$`));
    await expect(page.getByRole("heading", { name: c.door === "patient" ? "Patient Login" : "Staff Login" })).toBeVisible();

    // The session is gone on the server too: the shell sends the visitor to sign in.
    await page.goto("/home");
    await expect(page).toHaveURL(/\/patient\/login$/);
  });
}

test("a wrong password shows the server's message and stays on the login", async ({ page }) => {
  await signIn(page, "staff", "manager", "not-the-password");
  await expect(page.getByRole("alert")).toHaveText("The user name or password provided is incorrect.");
  await expect(page).toHaveURL(/\/staff\/login$/);
});

test("a patient cannot sign in at the staff door", async ({ page }) => {
  await signIn(page, "staff", "jane.doe");
  await expect(page.getByRole("alert")).toHaveText("The user name or password provided is incorrect.");
});

test("empty fields show the rule's messages without calling the server", async ({ page }) => {
  await page.goto("/patient/login");
  let called = false;
  page.on("request", (r) => r.url().includes("/api/patientUser/login") && (called = true));
  await page.getByRole("button", { name: "Log In" }).click();
  await expect(page.getByText("Username or email is required")).toBeVisible();
  await expect(page.getByText("Password is required")).toBeVisible();
  expect(called).toBe(false);
});

test("Enter submits, the password can be shown, and the logout icon signs out", async ({ page }) => {
  await page.goto("/patient/login");
  await page.getByLabel("Username or Email").fill("jane.doe");
  const password = page.getByLabel("Password", { exact: true });
  await password.fill(PASSWORD);
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(password).toHaveAttribute("type", "text");
  await password.press("Enter");
  await expectHome(page);
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});

test("the logins link to each other", async ({ page }) => {
  await page.goto("/patient/login");
  await page.getByRole("link", { name: "Staff login" }).click();
  await expect(page.getByRole("heading", { name: "Staff Login" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: "Patient login" }).click();
  await expect(page.getByRole("heading", { name: "Patient Login" })).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a signed-out visitor on a shell page goes to the patient login", async ({ page }) => {
  await page.goto("/admin/history-portal/all");
  await expect(page).toHaveURL(/\/patient\/login$/);
  await expect(mainMenu(page)).toHaveCount(0);
});
