import type { Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";
import { expectNoAxeViolations, PASSWORD } from "./helpers";
import { escape, pattern, patientForJourney, say, shoot } from "./languages-seed";

// Issue 21: the whole patient journey (sign in, home, a letter, a survey to submit,
// appointments) in Khmer and in Chinese, as a browser that remembered the language
// (localStorage `portal.language` before the first page). Every step asserts texts from the
// shipped catalog (wasm-core/labels/*.json), runs axe and takes screenshots at 1280, 820 and
// 390 px (tests/e2e/screenshots/languages-*.png). The survey's own questions are the "surveys"
// work; here the runner's texts are asserted, and the answers are chosen by position.

const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 240_000 });

/** Answers every yes/no and choice question on the runner's page with its second option (No),
 * including the ones an answer reveals. */
async function answerPage(page: Page) {
  const groups = page.locator(".survey-page").getByRole("radiogroup");
  for (let i = 0; i < (await groups.count()); i++) {
    await groups.nth(i).getByRole("radio").nth(1).check();
  }
}

const JOURNEYS = [
  { language: "cambodian", code: "km" },
  { language: "chinese", code: "zh" },
] as const;

for (const { language, code } of JOURNEYS) {
  test(`the patient journey in ${language}: sign in, home, a letter, a survey submitted, appointments`, async ({ browser, request }) => {
    const { username, queueId } = await patientForJourney(browser, request, code);
    const context = await browser.newContext({ locale: "en-US" });
    const page = await context.newPage();
    const t = (key: string) => say(key, code);

    // The patient picks the language on the sign-in page, which makes it their preference
    // (a language only remembered by the browser gives way to the patient's stored one).
    await page.goto("/patient/login");
    await page.getByLabel("Language").selectOption(language);
    await page.locator('input[name="usernameOrEmail"]').fill(username);
    await page.locator('input[name="password"]').fill(PASSWORD);
    await page.locator("button.login-submit").click();
    await expect(page).toHaveURL(/\/home$/);

    // Home: the title and menu, welcome, pending actions with the new survey, next appointments.
    await expect(page.getByRole("heading", { level: 1, name: t("Msg_Menu_Home") })).toBeVisible();
    const menu = page.getByRole("navigation", { name: "Main menu" });
    for (const key of ["Msg_Menu_Documents", "Msg_Menu_Appointments", "Msg_Menu_MedicalHistory"]) {
      await expect(menu.getByRole("link", { name: t(key), exact: true })).toBeVisible();
    }
    await expect(page.getByRole("heading", { level: 2, name: pattern("Home_WelcomeName", code) })).toBeVisible();
    await expect(page.getByText(t("Home_PatientIntro"))).toBeVisible();
    await expect(page.getByRole("heading", { name: t("Home_PendingActions") })).toBeVisible();
    await expect(page.locator(".pending-label", { hasText: t("Home_PendingSurvey") }).first()).toBeVisible();
    await expect(page.getByRole("heading", { name: t("Home_NextAppointments") })).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `${code}-home`);

    // A letter: the tabs and table, the viewer, then the phone list and the phone viewer page.
    await page.goto("/documents/all");
    await expect(page.getByRole("link", { name: new RegExp(escape(t("Documents_AllTab"))) })).toBeVisible();
    await expect(page.getByRole("link", { name: new RegExp(escape(t("Documents_UnreadTab"))) })).toBeVisible();
    const table = page.getByRole("table", { name: t("Documents_Letters") });
    await expect(table.getByRole("row").nth(1)).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `${code}-documents`);
    await table.getByRole("row").nth(1).locator(".doc-view button").first().click();
    const viewer = page.getByRole("dialog");
    await expect(viewer.locator("iframe")).toHaveAttribute("title", new RegExp(`${escape(t("Documents_LetterPdf"))}$`));
    // The dialog's close button (the focus is in the PDF's frame, so Escape goes to the frame).
    await viewer.locator("button.icon-button").first().click();
    await expect(page.locator("iframe.doc-frame")).toBeHidden();
    // A letter the patient may acknowledge is asked about after the viewer (wasm-core viewAction
    // ConfirmAck): in the language, answered No so the letter stays as it was.
    const ask = page.getByRole("dialog", { name: t("Documents_AckTitle") });
    if (await ask.isVisible()) {
      await expect(ask.getByText(pattern("Documents_AckQuestion", code))).toBeVisible();
      await expect(ask.getByRole("button", { name: t("Documents_Yes"), exact: true })).toBeVisible();
      await expectNoAxeViolations(page);
      await ask.getByRole("button", { name: t("Documents_No"), exact: true }).click();
      await expect(ask).toBeHidden();
    }
    await page.setViewportSize({ width: 390, height: 844 });
    const letters = page.getByRole("list", { name: t("Documents_Letters") });
    const item = letters.getByRole("listitem").first();
    await expect(item.locator(".letter-badge")).toHaveText(
      new RegExp(`^(${["Documents_StatusAcknowledged", "Documents_StatusRead", "Documents_StatusUnread"].map((k) => escape(t(k))).join("|")})$`),
    );
    await item.locator(".letter-actions button").first().click();
    await expect(page).toHaveURL(/\/Documents\/ViewPdf\//);
    await expect(page.getByRole("link", { name: t("Documents_BackToDocuments") })).toBeVisible();
    await expect(page.getByRole("link", { name: t("Documents_OpenPdf") })).toBeVisible();
    await expect(page.locator(`iframe[title="${t("Documents_LetterPdf")}"]`)).toBeVisible();
    await expectNoAxeViolations(page, ".doc-mobile");
    await shoot(page, `${code}-letter`);

    // Medical History: the tab, the columns, Begin Survey; the runner: required answers, pages,
    // Save and finish later, Submit, the thank-you card; back to Medical History, submitted.
    await page.goto("/medical-history/assigned");
    await expect(page.getByRole("navigation", { name: t("MedicalHistory_TabsLabel") }).getByRole("link", { name: new RegExp(escape(t("MedicalHistory_AssignedTab"))) })).toBeVisible();
    await expect(page.getByRole("columnheader", { name: t("MedicalHistory_SurveyColumn") })).toBeVisible();
    const begin = page.locator(`a[href$="surveyQueueId=${queueId}"]`);
    await expect(begin).toHaveText(t("Msg_MedicalHistory_BeginSurvey"));
    await expectNoAxeViolations(page);
    await shoot(page, `${code}-medical-history`);
    await begin.click();
    await expect(page.getByRole("button", { name: t("SurveyRunner_SaveLater") })).toBeVisible();
    await expect(page.locator("label.survey-lang select")).toHaveValue(code);
    await expect(page.locator(".survey-progress > span").first()).toHaveText(pattern("SurveyRunner_PageOf", code));
    await expect(page.getByRole("button", { name: t("SurveyRunner_Back") })).toBeDisabled();
    // Next without the required answers: wasm-core's message in the language.
    await page.getByRole("button", { name: t("SurveyRunner_Next") }).click();
    await expect(page.getByText(t("Msg_Survey_Required")).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `${code}-survey`);
    await answerPage(page);
    await page.getByRole("button", { name: t("SurveyRunner_Next") }).click();
    await expect(page.locator(".survey-progress > span").first()).toHaveText(pattern("SurveyRunner_PageOf", code));
    await answerPage(page);
    await expect(page.locator(".survey-saved")).toHaveText(new RegExp(`^(${escape(t("SurveyRunner_Saved"))}|${escape(t("SurveyRunner_Saving"))})$`));
    await page.getByRole("button", { name: t("SurveyRunner_Submit") }).click();
    await expect(page.getByRole("heading", { name: t("SurveyRunner_ThankYou") })).toBeVisible();
    await expect(page.getByText(t("SurveyRunner_Submitted"))).toBeVisible();
    await expect(page.getByText(t("SurveyRunner_NextPortal"))).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `${code}-survey-done`);
    await page.getByRole("button", { name: t("SurveyRunner_Done") }).click();
    await expect(page.getByText(t("MedicalHistory_Submitted"))).toBeVisible();

    // Appointments: the headings, and a card's facts in the language.
    await page.goto("/appointments");
    await expect(page.getByRole("heading", { level: 1, name: t("Msg_Menu_Appointments") })).toBeVisible();
    await expect(page.getByRole("heading", { name: t("Appointments_Upcoming") })).toBeVisible();
    await expect(page.getByRole("heading", { name: t("Appointments_Past") })).toBeVisible();
    await expect(page.locator(".appointment-facts dt", { hasText: t("Appointments_Location") }).first()).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, `${code}-appointments`);
    await context.close();
  });
}
