import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PATIENT_STATE, SCREENSHOTS, signIn } from "./helpers";

interface Survey { Id: number; StatusKey: string; SurveyName: string; DateCompleted?: string | null; AppointmentDate?: string | null; SurveyLogId?: number | null }

test.use({ storageState: PATIENT_STATE });

test("tabs, default tab and the button of every survey", async ({ page }) => {
  const a = page.waitForResponse((r) => r.url().endsWith("/api/surveyApi/GetAvailableSurveysForUser"));
  const c = page.waitForResponse((r) => r.url().endsWith("/api/surveyApi/GetCompletedSurveysForUser"));
  await page.goto("/medical-history");
  const available = ((await (await a).json()) as { surveys: Survey[] }).surveys;
  const completed = ((await (await c).json()) as { surveys: Survey[] }).surveys;
  const progress = available.filter((s) => s.StatusKey === "IntermediateSave");
  const assigned = available.filter((s) => s.StatusKey === "Assigned");
  await expect(page).toHaveURL(progress.length > 0 ? /\/medical-history\/progress$/ : /\/medical-history\/assigned$/);

  await page.goto("/medical-history/assigned");
  const rows = page.getByRole("table", { name: "Assigned" }).locator("tbody tr");
  if (assigned.length > 0) {
    await expect(rows).toHaveCount(assigned.length);
    await expect(rows.first().getByRole("link", { name: "Begin Survey" })).toHaveAttribute("href", /\/survey\?startType=HistoryPortal&surveyQueueId=\d+$/);
  }
  await page.getByRole("link", { name: /In Progress/ }).click();
  if (progress.length > 0) {
    await expect(page.getByRole("table", { name: "In Progress" }).getByRole("link", { name: "Resume Survey" })).toHaveCount(progress.length);
  }
  await page.getByRole("link", { name: /Completed\/Expired/ }).click();
  const table = page.getByRole("table", { name: "Completed/Expired" });
  await expect(table.locator("tbody tr")).toHaveCount(Math.max(completed.length, 1));
  await page.screenshot({ path: `${SCREENSHOTS}/medical-history-completed.png`, fullPage: true });
  await expectNoAxeViolations(page);
  for (const s of completed) {
    const row = table.locator("tbody tr", { hasText: s.SurveyName }).first();
    await expect(row).toBeVisible();
    if (!s.DateCompleted && s.StatusKey.includes("Expired")) {
      const view = table.getByRole("button", { name: /^View: You did not start the survey\. There is no information to view$/ });
      await expect(view.first()).toBeDisabled();
    }
  }
});

test("another patient's surveys never show", async ({ page, browser }) => {
  const a = page.waitForResponse((r) => r.url().endsWith("/api/surveyApi/GetAvailableSurveysForUser"));
  await page.goto("/medical-history/assigned");
  const janes = ((await (await a).json()) as { surveys: Survey[] }).surveys.map((s) => s.Id);
  const mariaContext = await browser.newContext({ storageState: undefined });
  const maria = await mariaContext.newPage();
  await signIn(maria, "patient", "maria.garcia");
  await expect(maria).toHaveURL(/\/home$/);
  // Home asks for the same list (pending actions): let it finish, so the wait below catches the
  // Medical History page's own answer and not one whose page is gone.
  await maria.waitForLoadState("networkidle");
  const m = maria.waitForResponse((r) => r.url().endsWith("/api/surveyApi/GetAvailableSurveysForUser"));
  await maria.goto("/medical-history/assigned");
  const marias = ((await (await m).json()) as { surveys: Survey[] }).surveys.map((s) => s.Id);
  expect(marias.filter((id) => janes.includes(id))).toEqual([]);
  for (const id of janes) await expect(maria.locator(`a[href$="surveyQueueId=${id}"]`)).toHaveCount(0);
  await mariaContext.close();
});
