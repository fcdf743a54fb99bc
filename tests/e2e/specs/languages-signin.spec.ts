import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Browser, BrowserContextOptions, Page, Response } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PASSWORD, SCREENSHOTS } from "./helpers";

// Issue 21 part A: the language picker on the sign-in pages and the patient pages, the browser's
// language as the default, the patient's choice kept on the server across sign-out and sign-in,
// <html lang>, the Khmer and Chinese fonts (loaded only for those languages), axe in both.

type Texts = Record<string, Record<"en" | "es" | "zh" | "km" | "vi" | "tl", string>>;
const labels = (file: string): Texts =>
  JSON.parse(readFileSync(fileURLToPath(new URL(`../../../wasm-core/labels/${file}`, import.meta.url)), "utf8"));
const LOGIN = labels("login.json");
const RECOVERY = labels("recovery.json");

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 820, height: 1100 },
  { width: 390, height: 844 },
];

/** A patient account of its own (a demo patient no other spec signs in as), so its language
 * preference is this spec's alone. */
async function ownPatient(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  const request = context.request;
  await request.get("/api/health");
  const csrf = (await context.cookies()).find((c) => c.name === "portal_csrf")!.value;
  const login = await request.post("/api/staffUser/login", { data: { usernameOrEmail: "manager", password: PASSWORD }, headers: { "X-CSRF-Token": csrf } });
  expect((await login.json()).IsValid).toBe(true);
  const username = `lang.${Date.now() % 1_000_000}`;
  const created = await request.post("/api/user/postUser", {
    data: { Roles: ["Patient"], Ssn: "100018", Username: username, Email: `${username}@example.test`, Password: PASSWORD, IsActive: true },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(created.ok(), await created.text()).toBe(true);
  await context.close();
  return username;
}

/** Signs in on the patient login whatever its language (the fields by name, the button by class). */
async function signInAnyLanguage(page: Page, username: string) {
  await page.locator('input[name="usernameOrEmail"]').fill(username);
  await page.locator('input[name="password"]').fill(PASSWORD);
  const answered = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/api/patientUser/login"));
  await page.locator("button.login-submit").click();
  await answered;
  await expect(page).toHaveURL(/\/home$/);
}

async function newPage(browser: Browser, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL, ...options });
  return context.newPage();
}

/** The gzip size of every script and stylesheet a page loads (what a reader downloads). */
function collectAssets(page: Page): { total: () => Promise<number>; fonts: string[] } {
  const sizes: Promise<number>[] = [];
  const fonts: string[] = [];
  page.on("response", (r: Response) => {
    const url = r.url();
    if (/\.(js|css)(\?|$)/.test(url)) sizes.push(r.body().then((b) => gzipSync(b).length, () => 0));
    if (/\.woff2?(\?|$)/.test(url)) fonts.push(url);
  });
  return { total: async () => (await Promise.all(sizes)).reduce((a, b) => a + b, 0), fonts };
}

async function shoot(page: Page, name: string) {
  for (const vp of VIEWPORTS) {
    await page.setViewportSize(vp);
    // Nothing wider than the window (no clipped or sideways-scrolling page).
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: `${SCREENSHOTS}/languages-${name}-${vp.width}.png`, fullPage: true });
  }
  await page.setViewportSize(VIEWPORTS[0]!);
}

const fontLoaded = (family: string) => [...document.fonts].some((f) => f.family.replace(/"/g, "") === family && f.status === "loaded");

test("the browser's language is the default: Chinese for a zh-CN browser, English otherwise", async ({ browser }) => {
  const zh = await newPage(browser, { locale: "zh-CN" });
  await zh.goto("/patient/login");
  await expect(zh.getByRole("heading", { level: 1 })).toHaveText(LOGIN.Login_PatientTitle!.zh);
  await expect(zh.locator("html")).toHaveAttribute("lang", "zh-Hans");
  await expect(zh.getByLabel(LOGIN.Language_Picker!.zh)).toHaveValue("chinese");
  await expect(zh.getByRole("link", { name: LOGIN.Login_ForgotPassword!.zh })).toBeVisible();
  await zh.context().close();

  const en = await newPage(browser, { locale: "fr-FR" });
  await en.goto("/patient/login");
  await expect(en.getByRole("heading", { level: 1 })).toHaveText("Patient Login");
  await expect(en.locator("html")).toHaveAttribute("lang", "en");
  await expect(en.getByLabel("Language")).toHaveValue("english");
  await en.context().close();
});

test("an English reader loads no Khmer or Chinese font; a Khmer reader loads Noto Sans Khmer", async ({ browser }) => {
  const page = await newPage(browser, { locale: "en-US" });
  const english = collectAssets(page);
  await page.goto("/patient/login");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Patient Login");
  await page.waitForLoadState("networkidle");
  expect(english.fonts.filter((f) => /noto-sans-(khmer|sc)/.test(f))).toEqual([]);
  const englishBytes = await english.total();
  await page.context().close();

  for (const [locale, family, pattern] of [
    ["km-KH", "Noto Sans Khmer", /noto-sans-khmer/],
    ["zh-CN", "Noto Sans SC", /noto-sans-sc/],
  ] as const) {
    const reader = await newPage(browser, { locale });
    const assets = collectAssets(reader);
    await reader.goto("/patient/login");
    await reader.waitForFunction(fontLoaded, family);
    await reader.waitForLoadState("networkidle");
    const fontBytes = await Promise.all(
      assets.fonts.filter((f) => pattern.test(f)).map(async (f) => (await (await reader.request.get(f)).body()).length),
    );
    expect(fontBytes.length).toBeGreaterThan(0);
    // Measured figures for the README (initial JS+CSS gzip; what this reader adds).
    console.log(
      `[sizes] English login JS+CSS gzip ${englishBytes} B; ${locale}: JS+CSS gzip ${await assets.total()} B, ` +
        `${fontBytes.length} font files ${fontBytes.reduce((a, b) => a + b, 0)} B`,
    );
    await reader.context().close();
  }
});

test("a patient picks Khmer on the login, signs in, switches to Chinese; the choice survives sign-out", async ({ browser }) => {
  test.setTimeout(240_000);
  const username = await ownPatient(browser);
  const page = await newPage(browser, { locale: "en-US" });
  await page.goto("/patient/login");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");

  // The picker on the login page: the page turns Khmer at once, in the Khmer font.
  await page.getByLabel("Language").selectOption("cambodian");
  await expect(page.locator("html")).toHaveAttribute("lang", "km");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(LOGIN.Login_PatientTitle!.km);
  await expect(page.getByLabel(LOGIN.Login_UsernameOrEmail!.km)).toBeVisible();
  await expect(page.getByRole("button", { name: LOGIN.Login_Submit!.km })).toBeVisible();
  await page.waitForFunction(fontLoaded, "Noto Sans Khmer");
  // wasm-core's messages in Khmer (Msg_ labels), under their fields.
  await page.getByRole("button", { name: LOGIN.Login_Submit!.km }).click();
  await expect(page.getByText(LOGIN.Msg_Login_UsernameOrEmailRequired!.km)).toBeVisible();
  await expect(page.getByText(LOGIN.Msg_Login_PasswordRequired!.km)).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "login-km");
  // The recovery pages follow the choice.
  await page.getByRole("link", { name: LOGIN.Login_ForgotPassword!.km }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(RECOVERY.Recovery_ForgotPasswordTitle!.km);
  await expect(page.locator("html")).toHaveAttribute("lang", "km");
  await expectNoAxeViolations(page);
  await page.getByRole("link", { name: RECOVERY.Recovery_BackToLogin!.km }).click();

  // Signed in: the choice made on the login page is now the patient's.
  await signInAnyLanguage(page, username);
  const picker = page.locator("header").getByLabel(LOGIN.Language_Picker!.km);
  await expect(picker).toHaveValue("cambodian");
  await expect(page.locator("html")).toHaveAttribute("lang", "km");
  await expect.poll(async () => (await (await page.request.get("/api/account/language")).json()).Language).toBe("cambodian");
  await expectNoAxeViolations(page);
  await shoot(page, "home-km");

  // Switched to Chinese after sign-in: the page and the server follow.
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/account/language") && r.request().method() === "PUT");
  await picker.selectOption("chinese");
  expect((await saved).status()).toBe(200);
  await expect(page.locator("html")).toHaveAttribute("lang", "zh-Hans");
  await expect(page.locator("header").getByLabel(LOGIN.Language_Picker!.zh)).toHaveValue("chinese");
  await page.waitForFunction(fontLoaded, "Noto Sans SC");
  // The next appointment's day (wasm-core's LongDate) with Chinese weekday and month names
  // (Date_ labels); the format's order stays. The demo gives this patient an upcoming one.
  const DATES = labels("dates.json");
  const weekdays = Object.entries(DATES).filter(([k]) => k.startsWith("Date_Weekday_")).map(([, v]) => v.zh);
  const months = Object.entries(DATES).filter(([k]) => k.startsWith("Date_Month_")).map(([, v]) => v.zh);
  await expect(page.getByText(new RegExp(`^(${weekdays.join("|")}), (${months.join("|")}) \\d{1,2}, \\d{4}$`)).first()).toBeVisible();
  await expectNoAxeViolations(page);
  await shoot(page, "home-zh");
  await page.locator("header button.logout-icon").click();
  await expect(page).toHaveURL(/\/patient\/login$/);
  // Still Chinese on this browser's login page.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(LOGIN.Login_PatientTitle!.zh);
  await expectNoAxeViolations(page);
  await shoot(page, "login-zh");
  await page.context().close();

  // Another browser (English, nothing remembered): English until the patient signs in, then
  // their Chinese from the server.
  const other = await newPage(browser, { locale: "en-US" });
  await other.goto("/patient/login");
  await expect(other.getByRole("heading", { level: 1 })).toHaveText("Patient Login");
  await signInAnyLanguage(other, username);
  await expect(other.locator("html")).toHaveAttribute("lang", "zh-Hans");
  await expect(other.locator("header").getByLabel(LOGIN.Language_Picker!.zh)).toHaveValue("chinese");
  await other.context().close();
});
