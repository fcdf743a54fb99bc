import type { APIRequestContext } from "@playwright/test";
import { PASSWORD } from "./helpers";

// What the survey specs and the autosave bench share: a seeded random sequence and an Assigned
// survey row of its own with a fresh PIN.

/** The demo kiosk's admin PIN (api/src/demo). */
const ADMIN_PIN = "2468";

/** mulberry32: small and deterministic. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Signs the request context in as front desk; returns the CSRF token for its calls. */
export async function staffApi(request: APIRequestContext): Promise<string> {
  await request.get("/api/health");
  const csrf = (await request.storageState()).cookies.find((c) => c.name === "portal_csrf")!.value;
  const login = await request.post("/api/staffUser/login", { data: { usernameOrEmail: "frontdesk", password: PASSWORD }, headers: { "X-CSRF-Token": csrf } });
  if (!(await login.json()).IsValid) throw new Error("front desk could not sign in");
  return csrf;
}

/** A survey row no other test touches, with a fresh PIN: the kiosk's staff start creates a new
 * patient (MRN unique per call) and a study today, then assigns `surveyId` (BIH-001 Breast
 * Imaging History, PES-010 Pre-Exam Screening). Picking demo rows from a shared list raced: a
 * row another spec started moved the list under the next one (the chaos spec once got a row
 * that another spec was answering). Patients are named Zoe Zeller so they sort last in lists. */
export async function freshSurvey(request: APIRequestContext, csrf: string, surveyId: string): Promise<{ queueId: number; pin: string; mrn: string }> {
  const admin = await (await request.get(`/api/surveyIdentity/CheckAdminPin?adminPin=${ADMIN_PIN}`)).json();
  if (!admin.isValid) throw new Error("the demo admin PIN was refused");
  const headers = { "X-CSRF-Token": csrf, "X-Survey-Admin": admin.Token as string };
  const mrn = `S-${Date.now().toString(36)}${Math.floor(Math.random() * 36 ** 4).toString(36)}`.toUpperCase();
  const offset = -new Date().getTimezoneOffset();
  const patient = await (
    await request.put("/magview.api/patient/add", {
      data: { Ssn: mrn, FirstName: "Zoe", LastName: "Zeller", Dob: "1980-03-14", Gender: "Female", Email: "", Phone: "", Location: "101", TimezoneOffset: offset },
      headers,
    })
  ).json();
  if (patient.Error) throw new Error(`create patient: ${JSON.stringify(patient)}`);
  const study = await (
    await request.put("/magview.api/studies/create", { data: { RespondentId: mrn, Location: "101", Description: "", TimezoneOffset: offset }, headers })
  ).json();
  if (study.Error) throw new Error(`create study: ${JSON.stringify(study)}`);
  const started = await request.post("/api/v2/survey/generatePin", {
    data: { respondentId: mrn, respondentEntityId: study.Result.RespondentEntityId, SurveyId: surveyId },
    headers,
  });
  if (!started.ok()) throw new Error(`generatePin: ${started.status()} ${await started.text()}`);
  const body = await started.json();
  return { queueId: body.SurveyQueueId as number, pin: body.Pin as string, mrn };
}
