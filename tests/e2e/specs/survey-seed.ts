import type { APIRequestContext } from "@playwright/test";
import { PASSWORD } from "./helpers";

// What the survey specs and the autosave bench share: a seeded random sequence and an Assigned
// breast-imaging history row with a fresh PIN, taken from the back of the list (the other specs
// take theirs from the front).

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

/** The last Assigned 'Breast Imaging History' row and a PIN generated for it. */
export async function lastHistorySurvey(request: APIRequestContext, csrf: string): Promise<{ queueId: number; pin: string }> {
  const list = await request.post("/api/surveyQueue/datatable", {
    data: { PageIndex: 0, PageSize: 100, SortDirection: "asc", Search: "", Status: "Assigned", SortColumn: "Id" },
    headers: { "X-CSRF-Token": csrf },
  });
  const rows = ((await list.json()).Data as { Id: number; SurveyName: string }[]).filter((r) => r.SurveyName === "Breast Imaging History");
  const queueId = rows[rows.length - 1].Id;
  const pin = (await (await request.post("/api/v2/survey/generatePin", { data: { SurveyQueueId: queueId }, headers: { "X-CSRF-Token": csrf } })).json()).Pin;
  return { queueId, pin };
}
