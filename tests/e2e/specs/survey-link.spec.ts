import { createHmac } from "node:crypto";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PASSWORD } from "./helpers";
import { mails, nextMail } from "./mail";

// Issue 5: the emailed survey link works without signing in (spec 01 §2.5, §4, §8). The rows
// are the spec's own: a person registered here for the first test, and for the refusals demo
// rows that are only read (a Completed and an Expired one) plus the dedicated demo patient
// lena.park (api/src/demo/survey_link.rs), whose account this spec locks.

/** The demo's fixed survey-link secret (api/src/demo/survey_link.rs; demo data only). */
const DEMO_LINK_SECRET = "PEtIHkSs_S4aIKNceZkF8ZangvviGziHFFWjAqxjVso";

/** The emailed link of a demo survey-queue row, made as the server makes it. */
function demoLink(queueId: number) {
  const tag = createHmac("sha256", Buffer.from(DEMO_LINK_SECRET, "base64url")).update(`survey-link:v1:${queueId}`).digest("base64url");
  return `/survey?startType=Email&token=${queueId}.${tag}`;
}

async function csrfOf(request: APIRequestContext) {
  await request.get("/api/health");
  return (await request.storageState()).cookies.find((c) => c.name === "portal_csrf")!.value;
}

async function staffSignIn(request: APIRequestContext) {
  const csrf = await csrfOf(request);
  const login = await request.post("/api/staffUser/login", { data: { usernameOrEmail: "frontdesk", password: PASSWORD }, headers: { "X-CSRF-Token": csrf } });
  expect((await login.json()).IsValid).toBe(true);
  return csrf;
}

/** History Portal rows of a status, as staff see them. */
async function rowsOf(request: APIRequestContext, csrf: string, status: string) {
  const r = await request.post("/api/surveyQueue/datatable", {
    data: { PageIndex: 0, PageSize: 100, SortDirection: "desc", Search: "", Status: status, SortColumn: "Id" },
    headers: { "X-CSRF-Token": csrf },
  });
  expect(r.ok()).toBe(true);
  return (await r.json()).Data as { Id: number; UserIdentifierToShow: string; SurveyName: string }[];
}

/** The survey link in an email (relative: the demo has no PublicWebAddress). */
function linkIn(mail: string) {
  const m = /(\/survey\?startType=Email&token=(\d+)\.[A-Za-z0-9_-]+)/.exec(mail);
  expect(m, mail).not.toBeNull();
  return { link: m![1], queueId: Number(m![2]) };
}

test("the link in a resent email starts the survey signed out, on the phone", async ({ page, request }) => {
  // A new person registers at the North Pavilion (102: the Pre-Exam Screening).
  const email = `link.${Date.now()}.${test.info().repeatEachIndex}@example.test`;
  let csrf = await csrfOf(request);
  const step1 = await request.post("/api/userRegistrationApi/sendRequestRegistrationEmail", { data: { email, locNum: "102" }, headers: { "X-CSRF-Token": csrf } });
  expect(step1.ok()).toBe(true);
  const reg = { email, firstName: "Lia", lastName: "Link", gender: "Female", year: 1981, month: 5, day: 17, phoneNumber: "(555) 222-3344", locNum: "102" };
  const step2 = await request.post("/api/userRegistrationApi/requestRegistration", { data: reg, headers: { "X-CSRF-Token": csrf } });
  expect((await step2.json()).isSentStartHistPortalSurveyEmail).toBe(true);
  const { queueId } = linkIn(await nextMail(email, [], "please fill in your medical history survey"));

  // Staff resend it from the History Portal; the link is taken from that email.
  const seen = mails(email);
  csrf = await staffSignIn(request);
  const resend = await request.post(`/api/HistoryPortal/ResendAssignMail?surveyQueueId=${queueId}`, { headers: { "X-CSRF-Token": csrf } });
  expect((await resend.json()).IsSent).toBe(true);
  const mail = await nextMail(email, seen, "please fill in your medical history survey before your appointment on (date to be confirmed)");
  const { link } = linkIn(mail);

  // Signed out (this page has no session), the link opens the survey; answers autosave.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/survey\\?startType=Email&surveyQueueId=${queueId}$`));
  await page.getByRole("radiogroup", { name: "Is there any chance you could be pregnant?" }).getByRole("radio", { name: "No", exact: true }).check();
  await expect(page.getByRole("status").filter({ hasText: /sav/ })).toHaveText("saved");
  // A reload goes on where the patient was (the tab keeps the survey token).
  await page.reload();
  await expect(page.getByRole("radiogroup", { name: "Is there any chance you could be pregnant?" }).getByRole("radio", { name: "No", exact: true })).toBeChecked();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath("survey-link-run.png") });
});

const OUTCOMES: { name: string; title: string; message: RegExp }[] = [
  { name: "completed", title: "Survey Complete", message: /^You have already completed this survey\. Thank you\.$/ },
  { name: "expired", title: "Survey Link Expired", message: /^This survey link has expired\./ },
  { name: "locked out", title: "Identity Verification Warning", message: /^Your portal account is locked after too many failed sign-in attempts, so this survey link cannot be used now\. Please try again in \d+ minutes? or contact the clinic\.$/ },
];

for (const outcome of OUTCOMES) {
  test(`an emailed link that is ${outcome.name} says '${outcome.title}' and OK goes to the patient login`, async ({ page, request }) => {
    const csrf = await staffSignIn(request);
    let queueId: number;
    if (outcome.name === "completed") {
      queueId = (await rowsOf(request, csrf, "Completed"))[0].Id;
    } else if (outcome.name === "expired") {
      queueId = (await rowsOf(request, csrf, "Expired"))[0].Id;
    } else {
      const lena = (await rowsOf(request, csrf, "Assigned")).find((r) => r.UserIdentifierToShow === "100903");
      expect(lena, "the demo's lockout patient has an Assigned survey").toBeDefined();
      queueId = lena!.Id;
      // IDFailMax (5) wrong passwords lock lena.park's portal account.
      const anon = await page.context().request;
      const anonCsrf = await csrfOf(anon);
      for (let i = 0; i < 5; i++) {
        await anon.post("/api/patientUser/login", { data: { usernameOrEmail: "lena.park", password: "Wrong!2026" }, headers: { "X-CSRF-Token": anonCsrf } });
      }
    }
    await page.goto(demoLink(queueId));
    const dialog = page.getByRole("alertdialog", { name: outcome.title });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("heading", { level: 1 })).toHaveText(outcome.title);
    await expect(dialog.getByText(outcome.message)).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: test.info().outputPath(`survey-link-${outcome.name.replace(" ", "-")}.png`) });
    await dialog.getByRole("button", { name: "OK" }).click();
    await expect(page).toHaveURL(/\/patient\/login$/);
  });
}

test("a forged link is refused and never starts a survey", async ({ page }) => {
  await page.goto("/survey?startType=Email&token=1.forged");
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("This survey link is not valid. Please use the link from your email.");
  await expect(page.getByRole("radiogroup")).toHaveCount(0);
  await expectNoAxeViolations(page);
});
