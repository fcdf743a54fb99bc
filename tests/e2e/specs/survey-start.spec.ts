import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, STAFF_STATE, signIn } from "./helpers";

// Issue 5 part 4: staff start on the kiosk (spec 01 §2.5, §5, §8). The demo kiosk has
// SelectPatientMode on and the admin PIN 2468. A tablet-sized screen.

test.use({ storageState: STAFF_STATE, viewport: { width: 1024, height: 768 } });

const NO_INTERNET = "No internet connnection. Please try again later";
const FINISHED_TODAY =
  "A survey for this study has already been submitted today. Are you sure you want to start a survey for this study again?";

async function csrfOf(page: Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === "portal_csrf");
  expect(cookie).toBeDefined();
  return cookie!.value;
}

async function enterAdminPin(page: Page) {
  await page.goto("/survey");
  await expect(page.getByRole("heading", { name: "Start a survey for a patient" })).toBeVisible();
  await page.getByLabel("Admin PIN").fill("2468");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Find the patient" })).toBeVisible();
}

/** The n-th patient of a search, its first (newest) study, through the API as the page does. */
async function patientAndStudy(request: APIRequestContext, csrf: string, lastName: string, n: number) {
  const grant = (await (await request.get("/api/surveyIdentity/CheckAdminPin?adminPin=2468")).json()).Token as string;
  const headers = { "X-CSRF-Token": csrf, "X-Survey-Admin": grant };
  const found = await (await request.post("/api/v2/survey/searchRespondents", { data: { LastName: lastName }, headers })).json();
  // A study whose surveys have not expired (today or later; the default expiry is 24 hours
  // after the appointment): from the n-th patient on, the first that has one.
  const today = new Date().toISOString().slice(0, 10);
  for (const patient of found.Data.slice(n)) {
    const entities = await (await request.post("/api/v2/survey/loadRespondentEntities", { data: { RespondentId: patient.RespondentId }, headers })).json();
    const index = (entities.Entities as { Date: string }[]).findIndex((e) => e.Date >= today);
    if (index >= 0) return { patient, entity: entities.Entities[index], index, headers };
  }
  throw new Error(`no ${lastName} with a study from today on`);
}

test("staff start: admin PIN, patient search, study, survey, PIN, runner", async ({ page, context }) => {
  await page.goto("/survey");
  await expect(page.getByRole("heading", { name: "Start a survey for a patient" })).toBeVisible();
  const cont = page.getByRole("button", { name: "Continue" });
  const pin = page.getByLabel("Admin PIN");
  // AdminPinLength is 4: Continue waits for four characters.
  await pin.fill("135");
  await expect(cont).toBeDisabled();
  await pin.fill("1357");
  await expect(cont).toBeEnabled();
  await cont.click();
  await expect(page.getByRole("alert")).toHaveText("Pin is invalid");
  await expect(pin).toHaveValue("");
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-staff-admin-pin.png` });
  await pin.fill("2468");
  await cont.click();

  // Search: three characters, then after the debounce a list.
  const search = page.getByLabel("Search patients");
  await search.fill("10");
  await expect(page.getByText("Please enter 3 or more characters")).toBeVisible();
  const answered = page.waitForResponse((r) => r.url().endsWith("/api/v2/survey/searchRespondents"));
  const typedAt = Date.now();
  // By MRN: a patient that is neither demo account.
  await search.fill("100010");
  await answered;
  expect(Date.now() - typedAt).toBeGreaterThanOrEqual(450);
  const rows = page.locator(".survey-staff-table tbody tr");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("100010");
  const lastName = (await rows.first().locator("td").nth(2).textContent())!;

  // Advanced search by respondent id, then by last name.
  await page.getByRole("button", { name: "Advanced search" }).click();
  await page.getByLabel("Respondent ID").fill("100010");
  await expect(rows.first()).toContainText("100010");
  await page.getByLabel("Respondent ID").fill("");
  await page.getByLabel("Last name").fill(lastName);
  await expect(rows.filter({ hasText: "100010" })).toHaveCount(1);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-staff-search.png` });
  await page.getByRole("button", { name: "Simple search" }).click();
  await search.fill("100010");
  await expect(rows).toHaveCount(1);

  await rows.first().getByRole("button", { name: "Choose" }).click();
  await expect(page.getByRole("heading", { name: /Choose a study for/ })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-staff-study.png` });
  await page.locator(".survey-staff-table tbody tr").first().getByRole("button", { name: "Choose" }).click();

  await expect(page.getByRole("heading", { name: /Choose a survey for/ })).toBeVisible();
  const start = page.getByRole("button", { name: "Start", exact: true });
  const surveys = page.getByRole("radiogroup", { name: "Survey" });
  // The choice order may preselect one; Start is disabled until one is chosen.
  if ((await surveys.getByRole("radio", { checked: true }).count()) === 0) await expect(start).toBeDisabled();
  await surveys.getByRole("radio", { name: "Pre-Exam Screening" }).check();
  await expect(start).toBeEnabled();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-staff-survey.png` });

  // Offline: refused with the spec's text.
  await context.setOffline(true);
  await start.click();
  await expect(page.getByRole("alert")).toHaveText(NO_INTERNET);
  await context.setOffline(false);

  await start.click();
  const warning = page.getByRole("dialog", { name: "Warning" });
  if (await warning.isVisible().catch(() => false)) await warning.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Survey PIN:")).toBeVisible();
  await expect(page.locator(".survey-staff-pin")).toHaveText(/^\d{4}$/);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-staff-ready.png` });
  await page.getByRole("button", { name: "Start survey" }).click();
  await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await expectNoAxeViolations(page);
});

test("a survey submitted today for the study asks for confirmation", async ({ page }) => {
  await page.goto("/survey");
  const csrf = await csrfOf(page);
  const { patient, entity, index, headers } = await patientAndStudy(page.request, csrf, "Williams", 0);
  // Submit a pre-exam screening for that study today, through the API.
  const started = await page.request.post("/api/v2/survey/generatePin", {
    data: { respondentId: patient.RespondentId, respondentEntityId: entity.RespondentEntityId, SurveyId: "PES-010" },
    headers,
  });
  expect(started.ok()).toBe(true);
  const queueId = (await started.json()).SurveyQueueId;
  const run = await (await page.request.get(`/api/surveyRun/${queueId}`)).json();
  if (run.StatusKey !== "Completed") {
    const submitted = await page.request.post(`/api/surveyRun/${queueId}/submit`, {
      data: {
        ChangeId: `e2e-${Date.now()}`,
        BaseRevision: run.Revision,
        Answers: { pregnant: "no", breastfeeding: "no", deodorant: "no", new_problem: "no", implants: "no" },
      },
      headers: { "X-CSRF-Token": csrf },
    });
    expect(submitted.ok(), await submitted.text()).toBe(true);
  }

  await enterAdminPin(page);
  await page.getByRole("button", { name: "Advanced search" }).click();
  await page.getByLabel("Respondent ID").fill(patient.RespondentId);
  await page.locator(".survey-staff-table tbody tr").first().getByRole("button", { name: "Choose" }).click();
  await page.locator(".survey-staff-table tbody tr").nth(index).getByRole("button", { name: "Choose" }).click();
  await page.getByRole("radiogroup", { name: "Survey" }).getByRole("radio", { name: "Pre-Exam Screening" }).check();
  await page.getByRole("button", { name: "Start", exact: true }).click();
  const warning = page.getByRole("dialog", { name: "Warning" });
  await expect(warning).toContainText(FINISHED_TODAY);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-staff-finished-today.png` });
  await warning.getByRole("button", { name: "No" }).click();
  await expect(warning).toHaveCount(0);
  await expect(page.getByText("Survey PIN:")).toHaveCount(0);
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await warning.getByRole("button", { name: "Yes" }).click();
  await expect(page.getByText("Survey PIN:")).toBeVisible();
});

test("a completed survey says 'Survey Complete' and goes back to the patient login", async ({ page }) => {
  await page.goto("/survey");
  const csrf = await csrfOf(page);
  const r = await page.request.post("/api/surveyQueue/datatable", {
    data: { PageIndex: 0, PageSize: 10, SortDirection: "asc", Search: "", Status: "Completed", SortColumn: "Id" },
    headers: { "X-CSRF-Token": csrf },
  });
  const queueId = (await r.json()).Data[0].Id;
  await page.goto(`/history-portal?startType=HistoryPortal&surveyQueueId=${queueId}`);
  const dialog = page.getByRole("alertdialog");
  await expect(dialog.getByRole("heading", { name: "Survey Complete" })).toBeVisible();
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});

test.describe("a kiosk session of its own", () => {
  // Logging out ends the session: not the shared front-desk storage state's.
  test.use({ storageState: { cookies: [], origins: [] } });

  test("staff logout on the kiosk goes back to the patient PIN with a staff login link", async ({ page }) => {
    await page.goto("/survey");
    await expect(page.getByRole("link", { name: "Staff login" })).toHaveAttribute("href", "/staff/login");
    await signIn(page, "staff", "frontdesk");
    await enterAdminPin(page);
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page.getByLabel("Enter your 4-digit PIN")).toBeVisible();
    await expect(page.getByRole("link", { name: "Staff login" })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
