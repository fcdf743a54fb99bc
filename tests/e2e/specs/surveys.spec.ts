import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { freshSurvey, staffApi } from "./survey-seed";
import { expectNoAxeViolations, SCREENSHOTS, STAFF_STATE, untilServiceWorkerControls } from "./helpers";

// Issue 5: taking a survey on the kiosk. A patient starts by PIN, answers with skip logic,
// reloads mid-way and resumes, submits; the server then holds exactly those answers.

/** The CSRF cookie of a page signed in through its storage state. */
async function pageCsrf(page: Page) {
  await page.goto("/survey");
  const cookie = (await page.context().cookies()).find((c) => c.name === "portal_csrf");
  expect(cookie).toBeDefined();
  return cookie!.value;
}

/** The first queue row of a status, as staff see them in the History Portal (the Expired rows are
 * only read; a test that answers makes its own row with freshSurvey). */
async function firstRow(request: APIRequestContext, csrf: string, status: string) {
  const r = await request.post("/api/surveyQueue/datatable", {
    data: { PageIndex: 0, PageSize: 10, SortDirection: "asc", Search: "", Status: status, SortColumn: "Id" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(r.ok()).toBe(true);
  const rows = (await r.json()).Data as { Id: number }[];
  expect(rows.length).toBeGreaterThan(0);
  return rows[0].Id;
}

test("a patient starts by PIN, answers with skip logic, reloads, resumes and submits", async ({ page, request }) => {
  const csrf = await staffApi(request);
  const { queueId, pin } = await freshSurvey(request, csrf, "PES-010");

  await page.goto("/survey");
  const start = page.getByRole("button", { name: "Start" });
  await expect(start).toBeDisabled();
  await page.getByLabel("Enter your 4-digit PIN").fill(pin);
  await start.click();

  await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
  await expect(page.getByText("Page 1 of 2")).toBeVisible();
  await expectNoAxeViolations(page);
  // Required checks from wasm-core before the next page.
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("This question is required")).toHaveCount(3);

  await page.getByRole("radiogroup", { name: "Is there any chance you could be pregnant?" }).getByRole("radio", { name: "No", exact: true }).check();
  await page.getByRole("radiogroup", { name: "Are you currently breastfeeding?" }).getByRole("radio", { name: "No", exact: true }).check();
  const note = page.getByText("Please use a wipe from the changing room");
  await expect(note).toHaveCount(0);
  await page.getByRole("radiogroup", { name: /wearing deodorant/ }).getByRole("radio", { name: "Yes", exact: true }).check();
  await expect(note).toBeVisible();
  // Language switch, with English where a text has no translation.
  await page.getByLabel("Language").selectOption("es");
  await expect(page.getByRole("heading", { name: "Antes de su examen" })).toBeVisible();
  // The runner's own texts follow the survey's language (issue 21): the picker is now "Idioma".
  await page.getByLabel("Idioma").selectOption("en");

  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  const side = page.getByRole("radiogroup", { name: "Which breast?" });
  await expect(side).toHaveCount(0);
  await page.getByRole("radiogroup", { name: /new breast problem/ }).getByRole("radio", { name: "Yes", exact: true }).check();
  await expect(side).toBeVisible();
  await side.getByRole("radio", { name: "Left", exact: true }).check();
  // The indicator says 'saved' only once the server confirmed the last change.
  await expect(page.getByRole("status").filter({ hasText: /sav/ })).toHaveText("saved");

  // Reload mid-way: the survey resumes on the same page with the answers given.
  await page.reload();
  await expect(page.getByText("Page 2 of 2")).toBeVisible();
  await expect(page.getByRole("radiogroup", { name: "Which breast?" }).getByRole("radio", { name: "Left", exact: true })).toBeChecked();

  // Hidden answers are not submitted: say No, the side question goes away.
  await page.getByRole("radiogroup", { name: /new breast problem/ }).getByRole("radio", { name: "No", exact: true }).check();
  await expect(side).toHaveCount(0);
  await page.getByRole("radiogroup", { name: "Do you have breast implants?" }).getByRole("radio", { name: "No", exact: true }).check();
  await page.getByLabel(/Date of your last mammogram/).fill("1950-01-01");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Please enter a value of at least 1960-01-01")).toBeVisible();
  await page.getByLabel(/Date of your last mammogram/).fill("2024-05-01");
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();

  const run = await (await request.get(`/api/surveyRun/${queueId}`)).json();
  expect(run.StatusKey).toBe("Completed");
  expect(run.Decision.Title).toBe("Survey Complete");
  const view = await (await request.get(`/api/surveyRun/log/${run.SurveyLogId}`)).json();
  expect(view.Answers).toEqual({
    pregnant: "no",
    breastfeeding: "no",
    deodorant: "yes",
    new_problem: "no",
    implants: "no",
    last_mammogram: "2024-05-01",
  });

  // View (read-only) from the History Portal's link, as staff.
  await page.goto(`/survey?startType=View&surveyLogId=${run.SurveyLogId}`);
  await expect(page.getByRole("heading", { name: "Thank you" })).toHaveCount(0);
});

test("wrong PINs say how many attempts are left", async ({ page }) => {
  await page.goto("/survey");
  // The server never issues guessable PINs such as 0000 (api routes/surveys.rs).
  await page.getByLabel("Enter your 4-digit PIN").fill("0000");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("alert")).toHaveText("Pin number is wrong. You have 2 attempts left");
  await expectNoAxeViolations(page);
});

test("an expired PIN says so, costs an attempt and keeps the PIN entry", async ({ page }) => {
  await page.goto("/survey");
  // The demo's PIN 7305 expired an hour before the portal started (api/src/demo/survey_link.rs).
  await page.getByLabel("Enter your 4-digit PIN").fill("7305");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("alert")).toHaveText("Pin number is expired");
  await page.getByLabel("Enter your 4-digit PIN").fill("0000");
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("alert")).toHaveText("Pin number is wrong. You have 1 attempts left");
});

test("starting while offline is refused", async ({ page, context }) => {
  await page.goto("/survey");
  await page.getByLabel("Enter your 4-digit PIN").fill("1234");
  await context.setOffline(true);
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("alert")).toHaveText("No internet connnection. Please try again later");
  await context.setOffline(false);
});

test.describe("as staff", () => {
  test.use({ storageState: STAFF_STATE });

  test("an expired survey says 'Survey Expired'", async ({ page }) => {
    const csrf = await pageCsrf(page);
    const queueId = await firstRow(page.request, csrf, "Expired");
    await page.goto(`/survey?startType=HistoryPortal&surveyQueueId=${queueId}`);
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByRole("heading", { name: "Survey Expired" })).toBeVisible();
    await expect(dialog).toContainText(
      "Could not start the survey, survey already expired. Please contact system administrator if you want to reschedule the survey.",
    );
  });

  test("'Survey Expired' and its message come in the patient's language (the shipped Spanish labels)", async ({ page }) => {
    const csrf = await pageCsrf(page);
    const queueId = await firstRow(page.request, csrf, "Expired");
    // wasm-core/labels/patient-tabs.json ships both texts in Spanish.
    await page.addInitScript(() => localStorage.setItem("portal.language", "spanish"));
    await page.goto(`/survey?startType=HistoryPortal&surveyQueueId=${queueId}`);
    const dialog = page.getByRole("alertdialog");
    await expect(dialog.getByRole("heading", { name: "Encuesta vencida" })).toBeVisible();
    await expect(dialog).toContainText("No se pudo iniciar la encuesta porque ya venció.");
  });

  test("a History Portal start shows the breast-imaging history with bounds and skip logic", async ({ page }) => {
    const csrf = await pageCsrf(page);
    const { queueId } = await freshSurvey(page.request, csrf, "BIH-001");
    await page.goto(`/survey?startType=HistoryPortal&surveyQueueId=${queueId}`);
    await expect(page.getByRole("heading", { name: "About you" })).toBeVisible();
    await page.getByLabel("Height (inches)").fill("30");
    await page.getByLabel("Weight (pounds)").fill("140");
    await page.getByRole("radiogroup", { name: "Sex assigned at birth" }).getByRole("radio", { name: "Female", exact: true }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Please enter a value between 36 and 96")).toBeVisible();
    await page.getByLabel("Height (inches)").fill("64");
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByRole("heading", { name: "Symptoms" })).toBeVisible();
    await page.getByRole("radiogroup", { name: /breast problems or symptoms/ }).getByRole("radio", { name: "Yes", exact: true }).check();
    await page.getByLabel("Nipple discharge").check();
    await expect(page.getByRole("radiogroup", { name: "What color is the discharge?" })).toBeVisible();
    await page.getByLabel("Nipple discharge").uncheck();
    await expect(page.getByRole("radiogroup", { name: "What color is the discharge?" })).toHaveCount(0);
    await page.screenshot({ path: `${SCREENSHOTS}/survey-runner.png`, fullPage: true });
  });
});

test("offline: answers are kept on the device, survive a reload and reach the server once", async ({ page, context, request }) => {
  const csrf = await staffApi(request);
  const { queueId, pin } = await freshSurvey(request, csrf, "PES-010");
  await page.goto("/survey");
  await page.getByLabel("Enter your 4-digit PIN").fill(pin);
  await page.getByRole("button", { name: "Start" }).click();
  const status = page.getByRole("status").filter({ hasText: /sav/ });
  await page.getByRole("radiogroup", { name: "Is there any chance you could be pregnant?" }).getByRole("radio", { name: "No", exact: true }).check();
  await expect(status).toHaveText("saved");
  // The worker is in control before the network goes.
  await untilServiceWorkerControls(page);

  await context.setOffline(true);
  await page.getByRole("radiogroup", { name: "Are you currently breastfeeding?" }).getByRole("radio", { name: "No", exact: true }).check();
  await page.getByRole("radiogroup", { name: /wearing deodorant/ }).getByRole("radio", { name: "Yes", exact: true }).check();
  await expect(status).toHaveText("saved on this device");

  await page.reload();
  await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
  await expect(page.getByRole("radiogroup", { name: /wearing deodorant/ }).getByRole("radio", { name: "Yes", exact: true })).toBeChecked();
  await expect(status).toHaveText("saved on this device");

  await context.setOffline(false);
  await expect(status).toHaveText("saved", { timeout: 10_000 });
  const run = await (await request.get(`/api/surveyRun/${queueId}`)).json();
  expect(run.Answers).toEqual({ pregnant: "no", breastfeeding: "no", deodorant: "yes" });
  expect(run.StatusKey).toBe("IntermediateSave");
  // The device copy is gone once the server confirmed; only the key remains.
  await expect
    .poll(() =>
      page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const req = indexedDB.open("portal-survey", 1);
            req.onsuccess = () => {
              const c = req.result.transaction("drafts").objectStore("drafts").count();
              c.onsuccess = () => resolve(c.result);
            };
          }),
      ),
    )
    .toBe(1);
});
