import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext } from "@playwright/test";
import { expect, test, type Page } from "./fixtures";
import { DocumentsSettingsApi } from "./documents-settings-api";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";
import { startOwnPortal, type OwnPortal } from "./own-portal";

// Documents Settings > release-sync (spec 03 §2, §4, §7, §9; issue 16): in SQL mode 'Sync is not
// applicable since you chose SQL database'; in FoxPro mode the release tables under MagViewPath
// (a dBASE III table written here, the layout of the README's "Release sync") are imported by the
// API's ReleaseSync service: 'identifying progress...', 'percent ( synced / syncable )', In
// progress with Stop, Stopped, Sync Failed, Completed with Sync disabled, delete all. Switching
// MagView to FoxPro would change the shared demo portal under the specs running beside this one,
// so this spec starts a demo portal of its own (own-portal.ts); its tests run one by one.
test.describe.configure({ mode: "serial" });

const URL = "/admin/patient-result-portal-settings/documents/release-sync";
const PDF = "%PDF-1.4\n% a release letter\n%%EOF\n";

type Row = { id: string; mrn: string; pdf: string };

/** A dBASE III table (no memo): header, field descriptors, 0x0D, records, 0x1A. */
function dbf(rows: Row[]): Buffer {
  const fields: [string, "C" | "D", number][] = [
    ["RELID", "C", 20],
    ["MRN", "C", 20],
    ["FIRSTNAME", "C", 20],
    ["LASTNAME", "C", 20],
    ["LETTERTYPE", "C", 20],
    ["RELDATE", "D", 8],
    ["PDFPATH", "C", 60],
  ];
  const recordLength = 1 + fields.reduce((n, [, , len]) => n + len, 0);
  const headerLength = 32 + 32 * fields.length + 1;
  const out = Buffer.alloc(headerLength + recordLength * rows.length + 1, 0);
  out[0] = 0x03;
  out[1] = 126;
  out[2] = 3;
  out[3] = 14;
  out.writeUInt32LE(rows.length, 4);
  out.writeUInt16LE(headerLength, 8);
  out.writeUInt16LE(recordLength, 10);
  fields.forEach(([name, type, len], i) => {
    const at = 32 + 32 * i;
    out.write(name, at, "ascii");
    out.write(type, at + 11, "ascii");
    out[at + 16] = len;
  });
  out[headerLength - 1] = 0x0d;
  rows.forEach((row, r) => {
    let at = headerLength + recordLength * r;
    out[at++] = 0x20;
    const values = [row.id, row.mrn, "Dana", "Release", "Notification", "20260314", row.pdf];
    fields.forEach(([, , len], i) => {
      out.write(values[i].padEnd(len, " ").slice(0, len), at, "ascii");
      at += len;
    });
  });
  out[out.length - 1] = 0x1a;
  return out;
}

let dir = "";
let api: DocumentsSettingsApi | undefined;
let portal: OwnPortal | null = null;
const contexts: BrowserContext[] = [];

test.beforeAll(async () => {
  test.setTimeout(60_000);
  portal = await startOwnPortal("release");
  dir = mkdtempSync(join(tmpdir(), "portal-release-"));
  mkdirSync(join(dir, "letters"));
  writeFileSync(join(dir, "letters", "ok.pdf"), PDF);
  writeFileSync(join(dir, "letters", "late.pdf"), "not yet a PDF");
});

test.afterAll(async () => {
  await api?.page.context().close();
  for (const c of contexts) await c.close();
  portal?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A page of a fresh browser context on this spec's own portal. */
async function ownPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: portal!.base });
  contexts.push(context);
  return context.newPage();
}

/** The settings API, signed in on this spec's own portal. */
async function settingsApi(browser: Browser) {
  api ??= await DocumentsSettingsApi.open(browser, portal!.base);
  return api;
}

async function open(page: Page) {
  await signIn(page, "staff", "manager");
  await page.goto(URL);
}

function bar(page: Page) {
  return page.getByRole("progressbar", { name: "Sync progress" });
}

test("SQL mode: 'Sync is not applicable since you chose SQL database'", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await ownPage(browser);
  await open(page);
  await expect(page.getByRole("navigation", { name: "Documents Settings" }).getByRole("link", { name: "Release Sync" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(page.getByText("Sync is not applicable since you chose SQL database")).toBeVisible();
  await expect(page.getByRole("button", { name: "Sync" })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("FoxPro mode: identifying, Sync Failed for a bad row, Completed, delete all", async ({ browser }) => {
  test.setTimeout(300_000);
  const page = await ownPage(browser);
  const rows: Row[] = [
    { id: "E2E-1", mrn: "E2E-REL-1", pdf: "letters/ok.pdf" },
    { id: "E2E-2", mrn: "E2E-REL-1", pdf: "letters/ok.pdf" },
    { id: "E2E-3", mrn: "E2E-REL-2", pdf: "letters/late.pdf" },
  ];
  writeFileSync(join(dir, "RELEASE.DBF"), dbf(rows));
  await (await settingsApi(browser)).save("CoreMagview", { MagViewMode: "MagViewDesktop", MagViewPath: dir, DataConnectionType: "FOXPRO", SchedulerApptType: "Screening" });

  // The first check runs in the background: held back here, the page says so meanwhile.
  let release: () => void = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route("**/magview.api/ReleaseTables/CheckSyncCompleteness", async (route) => {
    await held;
    await route.continue();
  });
  await open(page);
  await expect(page.getByRole("status")).toHaveText("identifying progress...");
  await expect(page.getByText("identifying progress...").first()).toBeVisible();
  release();
  await expect(page.getByText("0% ( 0 / 3 )")).toBeVisible();
  const sync = page.getByRole("button", { name: "Sync", exact: true });
  await expect(sync).toBeEnabled();
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "delete all" })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // One row's PDF is not a PDF: the sync ends below 100, not stopped by the user: Sync Failed.
  await sync.click();
  await expect(page.getByText("66% ( 2 / 3 )")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("status")).toHaveText("Sync Failed");
  await expect(page.getByText("RELEASE.DBF row E2E-3: PDF 'letters/late.pdf' is not a PDF")).toBeVisible();
  await expect(bar(page)).toHaveAttribute("value", "66");
  await expect(page.getByRole("button", { name: "delete all" })).toBeVisible();
  await expectNoAxeViolations(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/release-sync-failed-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // The clinic fixes the PDF: the next sync imports the last row only; Sync is disabled at 100.
  writeFileSync(join(dir, "letters", "late.pdf"), PDF);
  await sync.click();
  await expect(page.getByText("100% ( 3 / 3 )")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("status")).toHaveText("Completed");
  await expect(sync).toBeDisabled();
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/release-sync-completed-${width}.png`, fullPage: true });
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });

  // delete all: the imported letters go and the progress is checked again.
  await page.getByRole("button", { name: "delete all" }).click();
  await expect(page.getByText("0% ( 0 / 3 )")).toBeVisible();
  await expect(sync).toBeEnabled();
  await expect(page.getByRole("button", { name: "delete all" })).toHaveCount(0);
});

test("FoxPro mode: In progress with Stop, re-polled every 5 s; Stop gives Stopped", async ({ browser }) => {
  test.setTimeout(180_000);
  const page = await ownPage(browser);
  const rows: Row[] = Array.from({ length: 10000 }, (_, i) => ({ id: `BIG-${i}`, mrn: `E2E-BIG-${i % 20}`, pdf: "letters/ok.pdf" }));
  writeFileSync(join(dir, "RELEASE.DBF"), dbf(rows));
  await (await settingsApi(browser)).save("CoreMagview", { MagViewMode: "MagViewDesktop", MagViewPath: dir, DataConnectionType: "FOXPRO", SchedulerApptType: "Screening" });
  await open(page);
  await expect(page.getByText("0% ( 0 / 10000 )")).toBeVisible();
  const polls: number[] = [];
  page.on("request", (r) => {
    if (r.url().includes("CheckSyncCompleteness")) polls.push(Date.now());
  });
  await page.getByRole("button", { name: "Sync", exact: true }).click();
  await expect(page.getByRole("status")).toHaveText("In progress");
  await expect(page.getByRole("button", { name: "Sync", exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "delete all" })).toHaveCount(0);
  // Two polls while it runs, 5 s apart, the bar moving.
  await expect.poll(() => polls.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  const gap = polls[1] - polls[0];
  expect(gap).toBeGreaterThan(4_000);
  expect(gap).toBeLessThan(7_000);
  await expect(page.getByText(/^[1-9]\d?% \( \d+ \/ 10000 \)$/)).toBeVisible({ timeout: 15_000 });
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(page.getByRole("status")).toHaveText("Stopped");
  await expect(page.getByRole("button", { name: "Stop" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Sync", exact: true })).toBeEnabled();
  await expectNoAxeViolations(page);
  // Stopped, the page stops polling.
  const seen = polls.length;
  await page.waitForTimeout(6_000);
  expect(polls.length).toBe(seen);
  await page.getByRole("button", { name: "delete all" }).click();
  await expect(page.getByText("0% ( 0 / 10000 )")).toBeVisible({ timeout: 30_000 });
});
