import { fileURLToPath } from "node:url";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Locator, type Page } from "@playwright/test";

export const PASSWORD = "Portal!2026";
// Beside the specs, whatever directory Playwright was started from (not committed).
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export const STAFF_STATE = here("../.auth/frontdesk.json");
export const PATIENT_STATE = here("../.auth/jane.doe.json");
export const SCREENSHOTS = here("../screenshots");

/**
 * Signs in the way a person does: the form, then the Log In button. On the patient door the
 * person first picks English on the login page, which becomes their language (issue 21): a demo
 * patient's record may say another language (Maria Garcia's says Spanish), and specs running
 * beside each other must not depend on which one signed her in last.
 */
export async function signIn(page: Page, door: "patient" | "staff", user: string, password = PASSWORD) {
  await page.goto(`/${door}/login`);
  if (door === "patient") await page.getByLabel("Language").selectOption("english");
  await page.getByLabel("Username or Email").fill(user);
  await page.getByLabel("Password", { exact: true }).fill(password);
  // Wait for the login call's answer: a navigation right after the click could otherwise
  // overtake it and arrive without the session cookie.
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && /\/api\/(patient|staff)User\/login$/.test(r.url()));
  await page.getByRole("button", { name: "Log In" }).click();
  await answered;
}

/**
 * Waits until the service worker has installed the build's precache and controls the page, so a
 * reload without network is served by it. (An async predicate cannot do this in waitForFunction:
 * its promise counts as truthy at once.) A page the activation's claim missed is reloaded once.
 */
export async function untilServiceWorkerControls(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  const controlled = () => !!navigator.serviceWorker.controller;
  await page.waitForFunction(controlled, null, { timeout: 10_000 }).catch(async () => {
    await page.reload();
    await page.waitForFunction(controlled);
  });
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

/** A field's message as a person and a screen reader meet it: the control is marked invalid and
 * its description (aria-describedby) holds the message, shown under it. */
export async function expectFieldMessage(field: Locator, message: string) {
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
}

/** axe-core's WCAG 2.2 A/AA rules (2.0, 2.1 and 2.2 tags) on the page (or the part `include`
 * selects): no violation. */
export async function expectNoAxeViolations(page: Page, include?: string) {
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]);
  const result = await (include ? builder.include(include) : builder).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`)).toEqual([]);
}
