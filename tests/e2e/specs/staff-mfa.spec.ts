import { createHmac } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PASSWORD, SCREENSHOTS } from "./helpers";
import { startOwnPortal, type OwnPortal } from "./own-portal";

// Staff two-step sign-in (issue 22), end to end. Turning RequireMfaForAdmins on would change
// every other spec's sign-in on the shared demo portal, so this spec starts its own demo portal
// (the same binary and web build, a throwaway SQLite database) and works on it alone.

const SHOTS = `${SCREENSHOTS}/staff-mfa`;

let portal: OwnPortal | null = null;
let base = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  portal = await startOwnPortal("mfa");
  base = portal.base;
});

test.afterAll(() => portal?.stop());

/** RFC 4648 base32 (the secret as the enrolment shows it). */
function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const c of text.replace(/=+$/, "")) {
    buffer = (buffer << 5) | alphabet.indexOf(c);
    bits += 5;
    if (bits >= 8) {
      bytes.push((buffer >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 6238 TOTP with HMAC-SHA1, 30-second steps, 6 digits (written here, independent of the
 * server's implementation). */
function totp(key: Buffer, unixSeconds = Date.now() / 1000): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(unixSeconds / 30)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000;
  return code.toString().padStart(6, "0");
}

/** Waits for the next 30-second step (a code not yet used). */
async function nextStep(page: Page) {
  const left = 30 - (Math.floor(Date.now() / 1000) % 30);
  await page.waitForTimeout((left + 1) * 1000);
}

async function signInWithPassword(page: Page, user: string) {
  await page.goto(`${base}/staff/login`);
  await page.getByLabel("Username or Email").fill(user);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Log In" }).click();
}

async function signOut(page: Page) {
  await page.getByRole("button", { name: /Pat Morgan|Chris Lee|Dana Smith/ }).first().click();
  await page.getByRole("list", { name: "User menu" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/staff\/login$/);
}

async function shots(page: Page, name: string) {
  for (const [label, width, height] of [
    ["desktop", 1280, 800],
    ["390", 390, 844],
    ["820", 820, 1180],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SHOTS}/${name}-${label}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("the test's TOTP is RFC 6238's (appendix B, SHA-1)", () => {
  const key = Buffer.from("12345678901234567890");
  expect(totp(key, 59)).toBe("287082");
  expect(totp(key, 1111111109)).toBe("081804");
  expect(totp(key, 2000000000)).toBe("279037");
});

test("a required client admin sets up an authenticator at sign-in, then signs in with codes", async ({ page }) => {
  test.setTimeout(300_000);
  // A program manager turns the requirement on (User Account > Password Settings).
  await signInWithPassword(page, "manager");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(`${base}/admin/core-settings/user-account/password-settings`);
  const form = page.getByRole("form", { name: "Password Settings" });
  const require = form.getByLabel("Require two-step sign-in (authenticator app) for Program managers and Client admins");
  await expect(require).not.toBeChecked();
  await require.check();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Saved").last()).toBeVisible();
  await expectNoAxeViolations(page);
  await signOut(page);

  // The client admin's password passes; the second step asks for an app first.
  await signInWithPassword(page, "clientadmin");
  await expect(page.getByRole("heading", { name: "Set up two-step sign-in" })).toBeVisible();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("mfa-secret").textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoAxeViolations(page);
  await shots(page, "mfa-enrol");
  // Not signed in yet: the staff area sends back to sign in.
  const whoami = await page.request.get(`${base}/api/accountApi/permissionsJson`);
  expect((await whoami.json()).IsUserLoggedIn).toBe(false);

  const key = base32Decode(secret);
  const code = page.getByLabel("Authentication code");
  await code.fill("12");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(code).toHaveAccessibleDescription(/Enter the 6-digit code from your authenticator app, or a recovery code/);
  const wrong = String((Number(totp(key)) + 500_000) % 1_000_000).padStart(6, "0");
  await code.fill(wrong);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not correct. Try the newest code from your app." })).toBeVisible();
  await code.fill(totp(key));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("heading", { name: "Save your recovery codes" })).toBeVisible();
  const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = (await codes.first().textContent())!.trim();
  expect(recovery).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
  await expectNoAxeViolations(page);
  await shots(page, "mfa-recovery-codes");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  await signOut(page);

  // Next time: a code. The one just used is refused (its step was accepted once).
  await signInWithPassword(page, "clientadmin");
  await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();
  const second = page.getByLabel("Authentication code or recovery code");
  await expectNoAxeViolations(page);
  await shots(page, "mfa-code");
  await nextStep(page);
  await second.fill(totp(key));
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await signOut(page);

  // A recovery code signs in once.
  await signInWithPassword(page, "clientadmin");
  await page.getByLabel("Authentication code or recovery code").fill(recovery);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await signOut(page);
  await signInWithPassword(page, "clientadmin");
  await page.getByLabel("Authentication code or recovery code").fill(recovery);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "That code is not correct." })).toBeVisible();
});

test("front desk sets up two-step sign-in from the account page; a program manager resets it", async ({ page }) => {
  test.setTimeout(300_000);
  // Front desk is not required, signs in with the password, and chooses to set it up.
  await signInWithPassword(page, "frontdesk");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(`${base}/account/change-password`);
  const panel = page.getByRole("region", { name: "Two-step sign-in" });
  await expect(panel.getByText("Protect your account with a code from an authenticator app after your password.")).toBeVisible();
  await panel.getByRole("button", { name: "Set up two-step sign-in" }).click();
  await expect(panel.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const key = base32Decode((await panel.getByTestId("mfa-secret").textContent())!.trim());
  await expectNoAxeViolations(page);
  await shots(page, "mfa-account");
  await panel.getByLabel("Authentication code").fill(totp(key));
  await panel.getByRole("button", { name: "Confirm" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Two-step sign-in is set up." })).toBeVisible();
  await expect(panel.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);
  await signOut(page);
  await signInWithPassword(page, "frontdesk");
  await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();

  // The program manager resets it (Manage Users > Edit > Change Password tab).
  await signInWithPassword(page, "manager");
  // manager is required (the previous test turned the setting on) and has no app yet.
  await expect(page.getByRole("heading", { name: "Set up two-step sign-in" })).toBeVisible();
  const pmKey = base32Decode((await page.getByTestId("mfa-secret").textContent())!.trim());
  await page.getByLabel("Authentication code").fill(totp(pmKey));
  await page.getByRole("button", { name: "Verify" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/home$/);
  await page.goto(`${base}/admin/user/manage-users`);
  const table = page.getByRole("table", { name: "Users" });
  await page.getByRole("combobox", { name: "Role", exact: true }).selectOption("FrontDesk");
  await table.getByRole("row").filter({ hasText: "frontdesk" }).getByRole("button", { name: "Edit frontdesk" }).click();
  const edit = page.getByRole("dialog", { name: "Edit User" });
  await edit.getByRole("tab", { name: "Change Password" }).click();
  await edit.getByRole("button", { name: "Reset two-step sign-in" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Two-step sign-in was reset." })).toBeVisible();
  await expectNoAxeViolations(page);
  await edit.getByRole("button", { name: "Reset two-step sign-in" }).click();
  await expect(page.getByText("This user has no two-step sign-in to reset.").last()).toBeVisible();
  await edit.getByRole("button", { name: "Cancel" }).click();
  await signOut(page);

  // Front desk signs in with the password alone again.
  await signInWithPassword(page, "frontdesk");
  await expect(page).toHaveURL(/\/home$/);
});
