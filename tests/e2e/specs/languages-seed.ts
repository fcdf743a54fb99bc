import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { expect as baseExpect } from "./fixtures";
import { PASSWORD, SCREENSHOTS } from "./helpers";
import { staffApi } from "./survey-seed";

// What the languages specs share (issue 21): the shipped catalog (wasm-core/labels/*.json) to
// assert texts from, the screenshots at the three widths, and a demo patient of the test's own
// with a letter, appointments and a new Assigned Pre-Exam Screening.

const expect = baseExpect.configure({ timeout: 20_000 });

const LABELS = fileURLToPath(new URL("../../../wasm-core/labels/", import.meta.url));
export type Entry = Record<"en" | "es" | "zh" | "km" | "vi" | "tl", string>;
export const CATALOG: Record<string, Entry> = Object.assign(
  {},
  ...readdirSync(LABELS)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(LABELS + f, "utf8")) as Record<string, Entry>),
);

export const VIEWPORTS = [
  { name: "1280", width: 1280, height: 800 },
  { name: "820", width: 820, height: 1180 },
  { name: "390", width: 390, height: 844 },
] as const;

/** The demo's kiosk admin PIN (api/src/demo), for the staff start that assigns the survey. */
export const ADMIN_PIN = "2468";

export const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A label's text in the language; `{name}` placeholders filled or, when not given, matched by
 * anything (as a RegExp). */
export function say(key: string, code: keyof Entry): string {
  const entry = CATALOG[key];
  if (!entry) throw new Error(`${key} is not shipped`);
  return entry[code];
}
export function pattern(key: string, code: keyof Entry): RegExp {
  return new RegExp(`^${say(key, code).split(/\{\w+\}/).map(escape).join(".+")}$`);
}

/** Screenshots at the three widths, each looked at by a person (no horizontal overflow here). */
export async function shoot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const vp of VIEWPORTS) {
    await page.setViewportSize({ width: vp.width, height: vp.height });
    // A longer text must wrap, not push the page sideways.
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
    // Finished transitions: the sidebar becomes a drawer below 1024 px and slides away.
    await page.screenshot({ path: `${SCREENSHOTS}/languages-${name}-${vp.name}.png`, fullPage: true, animations: "disabled" });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** A program manager's request context and its CSRF token. */
export async function manager(browser: Browser) {
  const context = await browser.newContext();
  const request = context.request;
  await request.get("/api/health");
  const csrf = (await context.cookies()).find((c) => c.name === "portal_csrf")!.value;
  const login = await request.post("/api/staffUser/login", { data: { usernameOrEmail: "manager", password: PASSWORD }, headers: { "X-CSRF-Token": csrf } });
  expect((await login.json()).IsValid).toBe(true);
  return { request, csrf, close: () => context.close() };
}

/** A demo patient with letters and appointments who gets a portal account of this test's own
 * (no other spec signs in as them) and a new Assigned Pre-Exam Screening. */
export async function patientForJourney(browser: Browser, request: APIRequestContext, code: string) {
  const pm = await manager(browser);
  const headers = { "X-CSRF-Token": pm.csrf };
  const username = `${code}.journey.${Date.now().toString(36)}`;
  let mrn: string | null = null;
  // Demo MRNs 100003-100044 are generated patients; from the end, the first with a letter.
  for (let n = 100044; n > 100020 && !mrn; n--) {
    const docs = await pm.request.post("/api/documents/loadDocuments", { data: { ssn: String(n), sortOrder: "desc", TimezoneOffset: 0 }, headers });
    if (!docs.ok() || ((await docs.json()) as { list: unknown[] }).list.length === 0) continue;
    const created = await pm.request.post("/api/user/postUser", {
      data: { Roles: ["Patient"], Ssn: String(n), Username: username, Email: `${username}@example.test`, Password: PASSWORD, IsActive: true },
      headers,
    });
    if (created.ok()) mrn = String(n);
  }
  await pm.close();
  expect(mrn, "a demo patient with a letter").not.toBeNull();
  const csrf = await staffApi(request);
  const admin = await (await request.get(`/api/surveyIdentity/CheckAdminPin?adminPin=${ADMIN_PIN}`)).json();
  const staff = { "X-CSRF-Token": csrf, "X-Survey-Admin": admin.Token as string };
  const study = await (await request.put("/magview.api/studies/create", { data: { RespondentId: mrn, Location: "101", Description: "", TimezoneOffset: 0 }, headers: staff })).json();
  expect(study.Error, JSON.stringify(study)).toBeFalsy();
  const started = await request.post("/api/v2/survey/generatePin", {
    data: { respondentId: mrn, respondentEntityId: study.Result.RespondentEntityId, SurveyId: "PES-010" },
    headers: staff,
  });
  expect(started.ok(), await started.text()).toBe(true);
  return { username, queueId: (await started.json()).SurveyQueueId as number };
}
