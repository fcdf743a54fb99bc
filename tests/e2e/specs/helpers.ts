import { expect, type Page } from "@playwright/test";

export const PASSWORD = "Portal!2026";
export const STAFF_STATE = ".auth/frontdesk.json";
export const PATIENT_STATE = ".auth/jane.doe.json";

/** Signs in the way a person does: the form, then the Log In button. */
export async function signIn(page: Page, door: "patient" | "staff", user: string, password = PASSWORD) {
  await page.goto(`/${door}/login`);
  await page.getByLabel("Username or Email").fill(user);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In" }).click();
}

export function mainMenu(page: Page) {
  return page.getByRole("navigation", { name: "Main menu" });
}

/** A top-level menu entry: a link, or a button that opens a group. */
export function menuEntry(page: Page, name: string) {
  return mainMenu(page).getByRole("link", { name, exact: true }).or(mainMenu(page).getByRole("button", { name, exact: true }));
}

export async function expectHome(page: Page) {
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
}
