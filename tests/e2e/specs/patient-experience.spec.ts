import type { APIRequestContext, Browser, Locator, Page } from "@playwright/test";
import { expect as baseExpect, test } from "./fixtures";
import { expectNoAxeViolations, PASSWORD, PATIENT_STATE, SCREENSHOTS, signIn, STAFF_STATE } from "./helpers";
import { freshSurvey, staffApi } from "./survey-seed";

// Issue 20: the patient, kiosk and front-desk walk without dead ends, on a desktop, a tablet and
// a phone: the Appointments page, Done and "Save and finish later" after a survey, the kiosk's
// "I need help" reaching the front desk's home, the phone drawer's account links, /register with
// a bad link, /init on a configured portal, all with axe (WCAG 2.2 AA) at 0 violations.

// Lazy pages, the wasm and axe take seconds on the shared 2-core machine: longer waits here.
const expect = baseExpect.configure({ timeout: 20_000 });
test.describe.configure({ timeout: 120_000 });

const VIEWPORTS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "tablet", width: 820, height: 1180 },
  { name: "phone", width: 390, height: 844 },
] as const;

/** A request context signed in as `user` (staff door) and its CSRF token. */
async function staffContext(browser: Browser, user: string): Promise<{ request: APIRequestContext; csrf: string; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const request = context.request;
  await request.get("/api/health");
  const csrf = (await context.cookies()).find((c) => c.name === "portal_csrf")!.value;
  const login = await request.post("/api/staffUser/login", { data: { usernameOrEmail: user, password: PASSWORD }, headers: { "X-CSRF-Token": csrf } });
  expect((await login.json()).IsValid).toBe(true);
  return { request, csrf, close: () => context.close() };
}

/** A new patient with a portal account and an Assigned Pre-Exam Screening of their own (no other
 * spec sees it): the kiosk's staff start makes the patient and survey, a program manager the
 * account. */
async function patientWithSurvey(browser: Browser, request: APIRequestContext) {
  const csrf = await staffApi(request);
  const { queueId, pin, mrn } = await freshSurvey(request, csrf, "PES-010");
  const manager = await staffContext(browser, "manager");
  const username = `zoe.${mrn.toLowerCase()}`;
  const created = await manager.request.post("/api/user/postUser", {
    data: { Roles: ["Patient"], Ssn: mrn, Username: username, Email: `${username}@example.test`, Password: PASSWORD, IsActive: true },
    headers: { "X-CSRF-Token": manager.csrf },
  });
  expect(created.ok(), await created.text()).toBe(true);
  await manager.close();
  return { queueId, pin, username };
}

/** Presses Tab until `target` has the focus (keyboard only, as a person without a mouse). */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
}

for (const vp of VIEWPORTS) {
  test.describe(`${vp.name} ${vp.width} px`, () => {
    test.use({ viewport: { width: vp.width, height: vp.height } });

    test.describe("as Jane", () => {
      test.use({ storageState: PATIENT_STATE });

      test("the Appointments page lists upcoming and past appointments with where, when and what is due", async ({ page }) => {
        const answered = page.waitForResponse((r) => r.url().endsWith("/api/surveyApi/GetAppointmentsForUser"));
        await page.goto("/appointments");
        const body = (await (await answered).json()) as {
          upcoming: { Id: number; LocationName: string; LocationAddress: string; LocationPhone: string; Status: string; Survey: { SurveyQueueId: number; StatusKey: string } | null }[];
          past: { Id: number }[];
        };
        await expect(page.getByRole("heading", { level: 1, name: "Appointments" })).toBeVisible();
        const upcoming = page.getByRole("region", { name: "Upcoming appointments" }).getByRole("listitem");
        await expect(upcoming).toHaveCount(body.upcoming.length);
        await expect(page.getByRole("region", { name: "Past appointments" }).getByRole("listitem")).toHaveCount(body.past.length);
        const first = upcoming.first();
        // Weekday, date, time and the zone (the patient's own).
        await expect(first.getByRole("heading")).toHaveText(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), [A-Z][a-z]+ \d{1,2}, \d{4}( \d\d:\d\d [AP]M \S+)?$/);
        await expect(first.getByText(body.upcoming[0].LocationName, { exact: true })).toBeVisible();
        await expect(first.getByText(body.upcoming[0].LocationAddress)).toBeVisible();
        await expect(first.getByRole("link", { name: body.upcoming[0].LocationPhone })).toHaveAttribute("href", /^tel:/);
        // The survey due: Begin for an Assigned one, Resume for one in progress.
        for (const [i, a] of body.upcoming.entries()) {
          if (!a.Survey) continue;
          const label = a.Survey.StatusKey === "IntermediateSave" ? "Resume Survey" : "Begin Survey";
          await expect(upcoming.nth(i).getByRole("link", { name: label })).toHaveAttribute("href", `/survey?startType=HistoryPortal&surveyQueueId=${a.Survey.SurveyQueueId}`);
        }
        if (body.upcoming.some((a) => a.Status === "Rescheduled")) await expect(page.getByText("Rescheduled", { exact: true })).toBeVisible();
        await expectNoAxeViolations(page);
        await page.screenshot({ path: `${SCREENSHOTS}/appointments-${vp.width}.png`, fullPage: true });
      });

      test("the menu leads to Appointments; on a phone or tablet the drawer holds Account settings and Logout", async ({ page }) => {
        await page.goto("/home");
        if (vp.width <= 992) await page.getByRole("button", { name: "Toggle menu" }).click();
        const account = page.getByRole("navigation", { name: "Account" });
        if (vp.width <= 992) {
          await expect(account.getByRole("link", { name: "Account settings" })).toBeVisible();
          await expect(account.getByRole("button", { name: "Logout" })).toBeVisible();
          await expectNoAxeViolations(page);
          await page.screenshot({ path: `${SCREENSHOTS}/drawer-${vp.width}.png` });
        } else {
          await expect(account).toBeHidden();
        }
        await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Appointments" }).click();
        await expect(page).toHaveURL(/\/appointments$/);
      });
    });

    test("Maria is offered I Am Here for her appointment within the hour", async ({ page }) => {
      await signIn(page, "patient", "maria.garcia");
      await page.goto("/appointments");
      const today = page.getByRole("region", { name: "Upcoming appointments" }).getByRole("listitem").first();
      const arrived = today.getByText(/You have checked in|Ready for your exam/);
      // Another spec may have checked her in already: then the state shows instead of the link.
      if ((await arrived.count()) === 0) await expect(today.getByRole("link", { name: "I Am Here" })).toHaveAttribute("href", /^\/IamHere\?token=/);
      await expectNoAxeViolations(page);
    });

    test("a signed-in patient saves for later, resumes, submits and is back on Medical History", async ({ page, browser, request }) => {
      const { username } = await patientWithSurvey(browser, request);
      await signIn(page, "patient", username);
      await page.goto("/medical-history/assigned");
      await page.getByRole("link", { name: "Begin Survey" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Pre-Exam Screening" })).toBeVisible();
      // Her own session: a way out, no kiosk help button.
      await expect(page.getByRole("button", { name: "I need help" })).toHaveCount(0);
      await expect(page.getByRole("progressbar", { name: "Survey progress" })).toBeVisible();
      await page.getByRole("radiogroup", { name: "Is there any chance you could be pregnant?" }).getByRole("radio", { name: "No", exact: true }).check();
      await expect(page.getByRole("status").filter({ hasText: /sav/ })).toHaveText("saved");
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SCREENSHOTS}/survey-runner-${vp.width}.png`, fullPage: true });
      await page.getByRole("button", { name: "Save and finish later" }).click();
      await expect(page).toHaveURL(/\/medical-history\/progress$/);
      await expect(page.getByText("Your answers are saved. Choose Resume Survey when you are ready to finish.")).toBeVisible();

      await page.getByRole("link", { name: "Resume Survey" }).click();
      await expect(page.getByRole("radiogroup", { name: "Is there any chance you could be pregnant?" }).getByRole("radio", { name: "No", exact: true })).toBeChecked();
      await page.getByRole("radiogroup", { name: "Are you currently breastfeeding?" }).getByRole("radio", { name: "No", exact: true }).check();
      await page.getByRole("radiogroup", { name: /wearing deodorant/ }).getByRole("radio", { name: "No", exact: true }).check();
      await page.getByRole("button", { name: "Next" }).click();
      await page.getByRole("radiogroup", { name: /new breast problem/ }).getByRole("radio", { name: "No", exact: true }).check();
      await page.getByRole("radiogroup", { name: "Do you have breast implants?" }).getByRole("radio", { name: "No", exact: true }).check();
      await page.getByRole("button", { name: "Submit" }).click();
      await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
      await expect(page.getByText("Our staff will review them before your exam. The survey is listed under Medical History, Completed; you can view it there.")).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SCREENSHOTS}/survey-thank-you-${vp.width}.png` });
      await page.getByRole("button", { name: "Done" }).click();
      // Back in her portal (not the kiosk's PIN screen), with the survey marked as submitted.
      await expect(page).toHaveURL(/\/medical-history\/completed$/);
      await expect(page.getByText("Your survey was submitted. Thank you! Our staff will review your answers before your exam.")).toBeVisible();
      await expect(page.getByRole("table", { name: "Completed/Expired" }).getByText("Pre-Exam Screening")).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SCREENSHOTS}/medical-history-submitted-${vp.width}.png`, fullPage: true });
    });

    test("on the kiosk, keyboard only: I need help reaches the front desk, the survey is completed and handed back", async ({ page, browser, request }) => {
      const csrf = await staffApi(request);
      const { pin, mrn } = await freshSurvey(request, csrf, "PES-010");
      await page.goto("/survey");
      const pinBox = page.getByLabel("Enter your 4-digit PIN");
      await tabTo(page, pinBox);
      await page.keyboard.type(pin);
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { level: 1, name: "Pre-Exam Screening" })).toBeVisible();

      const help = page.getByRole("button", { name: "I need help" });
      await tabTo(page, help);
      await page.keyboard.press("Enter");
      await expect(page.getByText("The front desk has been asked to help you. Please stay here; someone will come to you shortly.")).toBeVisible();
      await expect(help).toBeDisabled();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SCREENSHOTS}/kiosk-help-${vp.width}.png`, fullPage: true });

      // The front desk sees it on its home and marks it handled.
      const desk = await browser.newContext({ storageState: STAFF_STATE, viewport: { width: vp.width, height: vp.height } });
      const deskPage = await desk.newPage();
      await deskPage.goto("/home");
      const requests = deskPage.getByRole("region", { name: "Help requested at the kiosk" });
      const mine = requests.getByRole("listitem").filter({ hasText: `Zoe Zeller (MRN ${mrn})` });
      await expect(mine).toHaveCount(1);
      await expectNoAxeViolations(deskPage);
      await deskPage.screenshot({ path: `${SCREENSHOTS}/staff-home-${vp.width}.png`, fullPage: true });
      await mine.getByRole("button", { name: `Handled: Zoe Zeller, MRN ${mrn}` }).click();
      await expect(mine).toHaveCount(0);
      await desk.close();

      // Keyboard only through both pages: Tab to a group's first choice, Space picks it; radio
      // groups are announced as groups with their question.
      for (const name of ["Is there any chance you could be pregnant?", "Are you currently breastfeeding?", "Are you wearing deodorant, powder or lotion on your chest or underarms today?"]) {
        const group = page.getByRole("radiogroup", { name });
        await tabTo(page, group.getByRole("radio").first());
        await page.keyboard.press("Space");
        await expect(group.getByRole("radio").first()).toBeChecked();
      }
      await tabTo(page, page.getByRole("button", { name: "Next" }));
      await page.keyboard.press("Enter");
      await expect(page.getByText("Page 2 of 2")).toBeVisible();
      for (const name of [/new breast problem/, "Which breast?", "Do you have breast implants?"]) {
        const group = page.getByRole("radiogroup", { name });
        await tabTo(page, group.getByRole("radio").first());
        await page.keyboard.press("Space");
      }
      await tabTo(page, page.getByRole("button", { name: "Submit" }));
      await page.keyboard.press("Enter");
      await expect(page.getByRole("heading", { name: "Thank you" })).toBeVisible();
      await expect(page.getByText("Our staff will review them before your exam. Please tap Done and hand the tablet back to the front desk.")).toBeVisible();
      await tabTo(page, page.getByRole("button", { name: "Done" }));
      await page.keyboard.press("Enter");
      // A kiosk session: back to the PIN screen for the next patient.
      await expect(page.getByLabel("Enter your 4-digit PIN")).toBeVisible();
    });

    test("the staff home shows the front desk's own pending work and content, not the patients' welcome", async ({ browser }) => {
      const context = await browser.newContext({ storageState: STAFF_STATE, viewport: { width: vp.width, height: vp.height } });
      const page = await context.newPage();
      await page.goto("/home");
      await expect(page.getByRole("heading", { name: "Your pending work" })).toBeVisible();
      for (const block of ["Help requested at the kiosk", "Today's arrivals", "Failed notices"]) await expect(page.getByRole("region", { name: block })).toBeVisible();
      await expect(page.getByRole("link", { name: "Open Today's Appointments" })).toHaveAttribute("href", "/admin/history-portal/today");
      await expect(page.getByRole("region", { name: "Staff home page content" }).getByRole("heading", { name: "Welcome to the staff portal" })).toBeVisible();
      await expect(page.getByText("Welcome to your patient portal")).toHaveCount(0);
      await expectNoAxeViolations(page);
      await context.close();
    });

    test("a /register link with a bad or missing location says so before asking anything", async ({ page }) => {
      for (const path of ["/register?locNum=999", "/register"]) {
        await page.goto(path);
        await expect(page.getByRole("heading", { name: "This link is not valid" })).toBeVisible();
        await expect(page.getByLabel("Email Address")).toHaveCount(0);
        await expectNoAxeViolations(page);
      }
      await page.screenshot({ path: `${SCREENSHOTS}/register-invalid-${vp.width}.png` });
      await page.goto("/register?locNum=101");
      await expect(page.getByLabel("Email Address")).toBeVisible();
    });

    test("/init on a configured portal says it is configured and leads to the sign-in pages", async ({ page }) => {
      await page.goto("/init");
      await expect(page.getByRole("heading", { name: "The portal is configured" })).toBeVisible();
      await expect(page.getByText("not configured yet")).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Staff login" })).toHaveAttribute("href", "/staff/login");
      await expectNoAxeViolations(page);
    });
  });
}
