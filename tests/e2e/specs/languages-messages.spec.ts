import type { APIRequestContext, Browser, Locator } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";
import { expectNoAxeViolations, PASSWORD } from "./helpers";
import { CATALOG, escape, pattern, patientForJourney, say, shoot, type Entry } from "./languages-seed";

// Issue 21: wasm-core's messages with a number or a name (wasm-core message_templates) and the
// month and weekday names of every patient date, in the chosen language. The texts asserted are
// the shipped catalog's (wasm-core/labels/*.json); numbers stay digits and the spec's date
// formats keep their order. Screenshots at 1280, 820 and 390 px (languages-msg-*.png), axe run.

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 180_000 });

const MONTHS = Array.from({ length: 12 }, (_, i) => `Date_Month_${i + 1}`);
const WEEKDAYS = Array.from({ length: 7 }, (_, i) => `Date_Weekday_${i}`);
/** Any English month or weekday name (wasm-core formatDate's). */
const ENGLISH_NAMES = new RegExp(`\\b(${[...MONTHS, ...WEEKDAYS].map((k) => CATALOG[k]!.en).join("|")})\\b`);

/** 'EEEE, MMMM d, y' (the letter date, spec 01 §2.3) with the language's names. */
function longDate(code: keyof Entry): string {
  const names = (keys: string[]) => `(${keys.map((k) => escape(say(k, code))).join("|")})`;
  return `${names(WEEKDAYS)}, ${names(MONTHS)} \\d{1,2}, \\d{4}`;
}

async function expectNoEnglishNames(where: Locator) {
  await expect(where).not.toHaveText(ENGLISH_NAMES);
}

/** A new patient of this spec's own (`tag`), signed in with `language` picked on the login page
 * (which becomes her preference); an English browser, so only the choice decides. */
async function signedInIn(browser: Browser, request: APIRequestContext, tag: string, language: string) {
  const { username } = await patientForJourney(browser, request, tag);
  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await page.goto("/patient/login");
  await page.getByLabel("Language").selectOption(language);
  await page.locator('input[name="usernameOrEmail"]').fill(username);
  await page.locator('input[name="password"]').fill(PASSWORD);
  await page.locator("button.login-submit").click();
  await expect(page).toHaveURL(/\/home$/);
  return { context, page };
}

for (const { language, code } of [
  { language: "cambodian", code: "km" },
  { language: "chinese", code: "zh" },
] as const) {
  test(`the kiosk's wrong-PIN message in ${language}: the label's text with the attempts left in digits`, async ({ page }) => {
    await page.goto("/survey");
    await page.getByLabel("Language").selectOption(language);
    await expect(page.getByRole("heading", { name: say("Kiosk_Title", code) })).toBeVisible();
    // The server never issues guessable PINs such as 0000 (api routes/surveys.rs).
    await page.getByLabel(say("Kiosk_EnterPin", code)).fill("0000");
    await page.getByRole("button", { name: say("Kiosk_Start", code) }).click();
    // Both languages' tests share the client's three attempts, so 2 or 1 are left.
    const wrong = new RegExp(`^(${escape(say("Msg_Kiosk_PinWrong", code)).replace("\\{n\\}", "[12]")})$`);
    await expect(page.getByRole("alert")).toHaveText(wrong);
    await expectNoAxeViolations(page);
    await shoot(page, `msg-${code}-kiosk-pin`);
  });
}

test("a Chinese patient reads Begin {survey}, and Chinese month and weekday names on the documents list, its phone list, the letter and appointments", async ({ browser, request }) => {
  const code = "zh";
  const t = (key: string) => say(key, code);
  const { context, page } = await signedInIn(browser, request, "zhmsg", "chinese");

  // Home: the new survey's pending line is Msg_Home_BeginSurvey with the survey's name in it.
  const pending = page.locator(".pending-label", { hasText: t("Home_PendingSurvey") }).first().locator("xpath=..").getByRole("link");
  await expect(pending).toHaveText(pattern("Msg_Home_BeginSurvey", code));
  await expect(pending).not.toHaveText(/^Begin /);

  // Documents: the Date column in the letter date format with Chinese names, and no English
  // name anywhere in the table (the Read and Acknowledged stamps 'On {date}' included).
  await page.goto("/documents/all");
  const table = page.getByRole("table", { name: t("Documents_Letters") });
  const firstRow = table.getByRole("row").nth(1);
  await expect(firstRow).toBeVisible();
  await expect(firstRow.getByRole("cell").filter({ hasText: new RegExp(`^${longDate(code)}$`) }).first()).toBeVisible();
  await expectNoEnglishNames(table);
  await expectNoAxeViolations(page);
  await shoot(page, `msg-${code}-documents`);
  // The letter viewer, then its stamp once read: 'On {date}' is Msg_Documents_OnDate.
  await firstRow.locator(".doc-view button").first().click();
  await expect(page.getByRole("dialog").locator("iframe")).toBeVisible();
  await page.getByRole("dialog").locator("button.icon-button").first().click();
  const ask = page.getByRole("dialog", { name: t("Documents_AckTitle") });
  if (await ask.isVisible()) await ask.getByRole("button", { name: t("Documents_No"), exact: true }).click();
  const stamp = new RegExp(`^${escape(t("Msg_Documents_OnDate")).replace("\\{date\\}", longDate(code))}$`);
  await expect(table.getByRole("cell").filter({ hasText: stamp }).first()).toBeVisible();
  await expectNoEnglishNames(table);

  // The phone list (< 420 px): each letter's date with Chinese names.
  await page.setViewportSize({ width: 390, height: 844 });
  const letters = page.getByRole("list", { name: t("Documents_Letters") });
  await expect(letters.locator(".letter-meta > span").first()).toHaveText(new RegExp(`^${longDate(code)}$`));
  await expectNoEnglishNames(letters);
  await page.setViewportSize({ width: 1280, height: 800 });

  // Appointments: each card's heading is the long format with Chinese names; the time, AM/PM
  // and the zone stay as the spec writes them.
  await page.goto("/appointments");
  await expect(page.getByRole("heading", { level: 1, name: t("Msg_Menu_Appointments") })).toBeVisible();
  const headings = page.locator(".appointment-card h3");
  await expect(headings.first()).toHaveText(new RegExp(`^${longDate(code)}( \\d{2}:\\d{2} (AM|PM)( \\S+)?)?$`));
  for (const heading of await headings.all()) await expectNoEnglishNames(heading);
  await expectNoAxeViolations(page);
  await shoot(page, `msg-${code}-appointments`);
  await context.close();
});

test("a Spanish patient's documents page: dates that start with a capital weekday, the column titles, buttons and the viewer's title in Spanish", async ({ browser, request }) => {
  const code = "es";
  const t = (key: string) => say(key, code);
  const { context, page } = await signedInIn(browser, request, "esdocs", "spanish");

  await page.goto("/documents/all");
  const table = page.getByRole("table", { name: t("Documents_Letters") });
  const firstRow = table.getByRole("row").nth(1);
  await expect(firstRow).toBeVisible();
  // The letter date ('EEEE, MMMM d, y') alone in its cell: the Spanish weekday with a capital
  // ("Miércoles, marzo 4, 2026"); the month inside it keeps its small letter.
  const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  const weekdays = WEEKDAYS.map((k) => escape(capital(t(k)))).join("|");
  const months = MONTHS.map((k) => escape(t(k))).join("|");
  const dateCell = firstRow.getByRole("cell").filter({ hasText: new RegExp(`^(${weekdays}), (${months}) \\d{1,2}, \\d{4}$`) });
  await expect(dateCell.first()).toBeVisible();
  await expectNoEnglishNames(table);
  // The clinic left the titles and buttons at their defaults: the DocumentsSetting_ labels.
  const headers = async () => (await table.getByRole("columnheader").allTextContents()).map((h) => h.replace(/[^\p{L}\p{N} ]/gu, "").trim());
  await expect.poll(headers).toContain(t("DocumentsSetting_DocViewWhenColumnTitle"));
  const shown = await headers();
  expect(shown).toContain(t("DocumentsSetting_DocTypeColumnTitle"));
  expect(shown).toContain(t("DocumentsSetting_DocViewColumnTitle"));
  for (const english of ["Date Sent", "Letter Type", "View"]) expect(shown).not.toContain(english);
  await expect(firstRow.locator(".doc-view button").first()).toHaveText(t("DocumentsSetting_DocViewBtnText"));
  await expectNoAxeViolations(page);
  await shoot(page, `msg-${code}-documents`);

  // The viewer's title: 'ID del paciente: …' (Msg_Documents_TitlePatientId) with the patient's ID.
  await firstRow.locator(".doc-view button").first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.locator("iframe")).toBeVisible();
  const idPart = escape(t("Msg_Documents_TitlePatientId")).replace("\\{id\\}", "\\S+");
  await expect(dialog.getByRole("heading").first()).toHaveText(new RegExp(idPart));
  await expect(dialog.getByRole("heading").first()).not.toContainText("Patient ID");
  await expectNoAxeViolations(page);
  await context.close();
});

test("the Chinese documents page's column titles and buttons are the Chinese labels (screenshots)", async ({ browser, request }) => {
  const code = "zh";
  const t = (key: string) => say(key, code);
  const { context, page } = await signedInIn(browser, request, "zhdocs", "chinese");
  await page.goto("/documents/all");
  const table = page.getByRole("table", { name: t("Documents_Letters") });
  await expect(table.getByRole("row").nth(1)).toBeVisible();
  const headers = async () => (await table.getByRole("columnheader").allTextContents()).map((h) => h.replace(/[^\p{L}\p{N} ]/gu, "").trim());
  await expect.poll(headers).toContain(t("DocumentsSetting_DocViewWhenColumnTitle"));
  await expect(table.getByRole("row").nth(1).locator(".doc-view button").first()).toHaveText(t("DocumentsSetting_DocViewBtnText"));
  await expectNoAxeViolations(page);
  await shoot(page, `msg-${code}-documents-titles`);
  await context.close();
});
