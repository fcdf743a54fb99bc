import { createHmac } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";
import { expectNoAxeViolations, PASSWORD, SCREENSHOTS } from "./helpers";

// Issue 21, the rest of the sign-in area: the invalid registration link, unsubscribe, change
// password (its fields, a wasm-core message, the requirement panel, the done dialog) and the
// session-timer dialog, in Vietnamese and in Khmer. Every text asserted is the shipped catalog's
// (wasm-core/labels/*.json); axe runs on each screen; screenshots at 1280, 820 and 390 px
// (tests/e2e/screenshots/languages-account-*.png).

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const LABELS = fileURLToPath(new URL("../../../wasm-core/labels/", import.meta.url));
type Code = "en" | "es" | "zh" | "km" | "vi" | "tl";
const CATALOG: Record<string, Record<Code, string>> = Object.assign(
  {},
  ...readdirSync(LABELS)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(LABELS + f, "utf8")) as Record<string, Record<Code, string>>),
);
function say(key: string, code: Code): string {
  const text = CATALOG[key]?.[code];
  if (!text) throw new Error(`${key} is not shipped`);
  return text;
}

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 820, height: 1180 },
  { width: 390, height: 844 },
];

async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const vp of VIEWPORTS) {
    await page.setViewportSize(vp);
    // A longer text must wrap, not push the page sideways.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/languages-account-${name}-${vp.width}.png`, fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS[0]!);
}

// The demo's fixed unsubscribe secret (api/src/demo/registration.rs; see unsubscribe.spec.ts):
// the link the notifications engine would mail to the demo patient Nora Quinn (id 900002).
const DEMO_SECRET = "05ScSc5qvMEU_D2JGobmH01Sjq8NVBF7FPbAaydrI4U";
function unsubscribeToken(patientId: number): string {
  const tag = createHmac("sha256", Buffer.from(DEMO_SECRET, "base64url")).update(`unsubscribe:v1:${patientId}`).digest("base64url");
  return `${patientId}.${tag}`;
}

/** A portal account of this test's own for a demo patient no other spec signs in as. */
async function ownPatient(browser: Browser, mrn: string): Promise<string> {
  const context = await browser.newContext();
  const request = context.request;
  await request.get("/api/health");
  const csrf = (await context.cookies()).find((c) => c.name === "portal_csrf")!.value;
  const login = await request.post("/api/staffUser/login", { data: { usernameOrEmail: "manager", password: PASSWORD }, headers: { "X-CSRF-Token": csrf } });
  expect((await login.json()).IsValid).toBe(true);
  const username = `acct.${mrn}.${Date.now().toString(36)}`;
  const created = await request.post("/api/user/postUser", {
    data: { Roles: ["Patient"], Ssn: mrn, Username: username, Email: `${username}@example.test`, Password: PASSWORD, IsActive: true },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(created.ok(), await created.text()).toBe(true);
  await context.close();
  return username;
}

const LANGUAGES = [
  { code: "vi", name: "vietnamese", tag: "vi", mrn: "100008" },
  { code: "km", name: "cambodian", tag: "km", mrn: "100009" },
] as const;

for (const { code, name, tag, mrn } of LANGUAGES) {
  test(`the invalid registration link and unsubscribe in ${name}`, async ({ page }) => {
    await page.addInitScript((language) => localStorage.setItem("portal.language", language), name);

    await page.goto("/register?locNum=NO-SUCH-PLACE");
    await expect(page.locator("html")).toHaveAttribute("lang", tag);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(say("Registration_InvalidTitle", code));
    await expect(page.getByRole("alert")).toHaveText(say("Registration_InvalidMessage", code));
    await expect(page.getByText(say("Registration_InvalidHelp", code))).toBeVisible();
    await expect(page.getByRole("link", { name: say("Recovery_BackToLogin", code) })).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `register-invalid-${code}`);

    await page.goto(`/unsubscribe/${unsubscribeToken(900002)}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(say("Unsubscribe_Title", code));
    await expect(page.getByRole("status")).toHaveText(say("Unsubscribe_Success", code));
    await expectNoAxeViolations(page);
    await shoot(page, `unsubscribed-${code}`);

    // Another patient's signature: not unsubscribed, and asked to call the provider.
    const forged = unsubscribeToken(900001).split(".")[1];
    await page.goto(`/unsubscribe/900002.${forged}`);
    await expect(page.getByRole("status")).toHaveText(say("Unsubscribe_Failure", code));
    await expect(page.getByTestId("call-provider")).toHaveText(say("Unsubscribe_CallProvider", code));
    await expectNoAxeViolations(page);
    await shoot(page, `unsubscribe-failed-${code}`);
  });

  test(`change password and the session timer in ${name}`, async ({ browser, page }) => {
    const username = await ownPatient(browser, mrn);
    // The language picked on the sign-in page becomes the patient's.
    await page.goto("/patient/login");
    await page.getByLabel("Language").selectOption(name);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(say("Login_PatientTitle", code));
    await page.locator('input[name="usernameOrEmail"]').fill(username);
    await page.locator('input[name="password"]').fill(PASSWORD);
    const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/patientUser/login"));
    await page.locator("button.login-submit").click();
    await answered;
    await expect(page).toHaveURL(/\/home$/);

    // The header's account menu and Logout.
    await expect(page.getByRole("button", { name: say("Account_Logout", code) })).toBeVisible();
    await page.locator(".user-menu-button").click();
    await expect(page.getByRole("list", { name: say("Account_UserMenu", code) })).toBeVisible();
    await page.getByRole("link", { name: say("Msg_Menu_AccountSettings", code) }).click();

    await expect(page).toHaveURL(/\/account\/change-password$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(say("Account_ChangePasswordTitle", code));
    const oldPassword = page.getByLabel(say("Account_OldPassword", code), { exact: true });
    const newPassword = page.getByLabel(say("Account_NewPassword", code), { exact: true });
    const confirm = page.getByLabel(say("Account_ConfirmPassword", code), { exact: true });
    const panel = page.locator("aside.password-requirements");
    await expect(panel).toHaveAttribute("aria-label", say("Account_PasswordRequirements", code));
    const next = `Kx!${code}-Portal-2099`;
    await oldPassword.fill(PASSWORD);
    await newPassword.fill(next);
    await confirm.fill(`${next}?`);
    // wasm-core's message (Msg_Membership_PasswordsNotEqual) under the field, in the language.
    await expect(page.getByText(say("Msg_Membership_PasswordsNotEqual", code), { exact: true })).toBeVisible();
    await expect(panel.getByRole("heading")).toHaveText(say("Account_PasswordRequirements", code));
    await expect(panel.getByRole("listitem").first()).toContainText(say("Account_RequirementMet", code));
    await expect(page.getByRole("button", { name: say("Account_Change", code), exact: true })).toBeVisible();
    // Who opened my record, on the same page (a new account: nobody yet).
    await expect(page.getByRole("heading", { name: say("Account_RecordAccessesTitle", code) })).toBeVisible();
    await expect(page.getByText(say("Account_NoRecordAccesses", code))).toBeVisible();
    await expect(page.locator(".pager-summary")).toHaveText(say("Table_Showing", code).replace(/\{\w+\}/g, "0"));
    await expect(page.getByRole("button", { name: say("Table_Next", code), exact: true })).toBeDisabled();
    await expectNoAxeViolations(page);
    await shoot(page, `change-password-${code}`);

    // The session timer: the browser's clock (Date only; timers keep running) is moved to just
    // before the real server session's end, so the warning shows; Continue extends the session on
    // the server. Its 60 s server check is started again by the reload, and has not run meanwhile.
    const [timeout] = await Promise.all([
      page.waitForResponse((r) => r.url().endsWith("/api/auth/getSessionTimeoutSeconds")),
      page.reload(),
    ]);
    const seconds = ((await timeout.json()) as { SessionTimeoutSeconds: number }).SessionTimeoutSeconds;
    const settings = (await (await page.request.get("/api/accountApi/sessionSettings")).json()) as { WarnBeforeSessionTimeoutMinutes: number };
    const leftSeconds = Math.min(60, (settings.WarnBeforeSessionTimeoutMinutes * 60) / 2);
    const now = await page.evaluate(() => Date.now());
    await page.clock.setFixedTime(now + (seconds - leftSeconds) * 1000);
    const warning = page.getByRole("dialog", { name: say("SessionTimer_WarningTitle", code) });
    await expect(warning).toBeVisible();
    const [before, after] = say("SessionTimer_WillExpire", code).split("{time}");
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await expect(warning.locator("p")).toHaveText(new RegExp(`^${escape(before!)}\\d+:\\d\\d${escape(after!)}$`));
    await expect(warning.getByRole("button", { name: say("Dialog_Close", code) })).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `session-warning-${code}`);
    const continued = page.waitForResponse((r) => r.url().endsWith("/api/auth/continueSession"));
    await warning.getByRole("button", { name: say("SessionTimer_Continue", code) }).click();
    expect((await continued).ok()).toBe(true);
    await expect(warning).toBeHidden();

    // Past the end: the expired dialog.
    await page.clock.setFixedTime(now + (seconds + 3600) * 1000);
    const expired = page.getByRole("dialog", { name: say("SessionTimer_ExpiredTitle", code) });
    await expect(expired).toBeVisible();
    await expect(expired.locator("p")).toHaveText(say("SessionTimer_Expired", code));
    await expect(expired.getByRole("button", { name: say("SessionTimer_Exit", code) })).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `session-expired-${code}`);
    // Continue: the server session is still alive (only the browser's clock moved).
    await expired.getByRole("button", { name: say("SessionTimer_Continue", code) }).click();
    await expect(expired).toBeHidden();
    await page.clock.setFixedTime(Date.now());

    // The change itself (the reload emptied the form), and the done dialog.
    await oldPassword.fill(PASSWORD);
    await newPassword.fill(next);
    await confirm.fill(next);
    await expect(page.getByText(say("Msg_Membership_PasswordsNotEqual", code), { exact: true })).toBeHidden();
    await page.getByRole("button", { name: say("Account_Change", code), exact: true }).click();
    const done = page.getByRole("dialog", { name: say("Account_PasswordChangedTitle", code) });
    await expect(done).toContainText(say("Account_PasswordChanged", code));
    await expectNoAxeViolations(page);
    await shoot(page, `password-changed-${code}`);
    await done.getByRole("button", { name: say("Dialog_OK", code) }).click();
    await expect(page).toHaveURL(/\/patient\/login$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(say("Login_PatientTitle", code));
  });
}
