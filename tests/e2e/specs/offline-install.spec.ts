import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations } from "./helpers";
import { freshSurvey, staffApi } from "./survey-seed";

// Issue 5 part 6: the app is installable (web app manifest) and its service worker precaches
// the whole build (the list is made by the build: shell, hashed JS/CSS chunks, wasm), so an
// offline reload of the kiosk renders the survey from the precache with the answers kept on the
// device, without the global 'No internet' dialog; other pages still show that dialog offline.

const OFFLINE = "No internet connnection. Please try again later"; // spelling as in spec 01 §8

/** The precache list the build wrote into sw.js, and what the worker's cache holds. */
async function precacheState(page: Page) {
  return page.evaluate(async () => {
    const source = await (await fetch("/sw.js")).text();
    const list = JSON.parse(source.match(/const PRECACHE = (\[.*?\]);/)![1]) as string[];
    const name = (await caches.keys()).find((k) => k.startsWith("portal-shell-"));
    const cached = name ? (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname) : [];
    return { list, cached, controlled: !!navigator.serviceWorker.controller };
  });
}

test("an offline reload of the kiosk renders from the precache with the device's answers and no 'No internet' dialog", async ({ page, context, request }) => {
  const csrf = await staffApi(request);
  const { queueId, pin } = await freshSurvey(request, csrf, "BIH-001");

  await page.goto("/survey");
  await page.getByLabel("Enter your 4-digit PIN").fill(pin);
  await page.getByRole("button", { name: "Start" }).click();
  await expect(page.getByRole("heading", { name: "Breast Imaging History" })).toBeVisible();
  const status = page.getByRole("status").filter({ hasText: /sav/ });
  await page.getByLabel(/Height \(inches\)/).fill("64");
  await expect(status).toHaveText("saved");

  // The worker installed the build's whole precache list and controls the page.
  await expect.poll(async () => (await precacheState(page)).controlled, { timeout: 15_000 }).toBe(true);
  const { list, cached } = await precacheState(page);
  expect(list).toContain("/index.html");
  expect(list).toContain("/manifest.webmanifest");
  expect(list.some((p) => /^\/assets\/wasm_core_bg-.*\.wasm$/.test(p))).toBe(true);
  expect(list.some((p) => /^\/assets\/main-.*\.css$/.test(p))).toBe(true);
  // Chunks of pages this visit never opened are there too: the list is the build's, not the visit's.
  expect(list.some((p) => /^\/assets\/users-page-.*\.js$/.test(p))).toBe(true);
  expect([...cached].sort()).toEqual([...list].sort());

  await context.setOffline(true);
  await page.getByLabel(/Weight \(pounds\)/).fill("150");
  await expect(status).toHaveText("saved on this device");

  // Reload without network: the document comes from the worker, the runner from the device copy.
  const apiFailed = page.waitForEvent("requestfailed", (r) => r.url().includes("/api/"));
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);
  await expect(page.getByRole("heading", { name: "Breast Imaging History" })).toBeVisible();
  await expect(page.getByLabel(/Height \(inches\)/)).toHaveValue("64");
  await expect(page.getByLabel(/Weight \(pounds\)/)).toHaveValue("150");
  await expect(status).toHaveText("saved on this device");
  // The app's start-up calls did fail offline; no dialog covers the survey.
  await apiFailed;
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(page.getByText(OFFLINE)).toHaveCount(0);
  await expectNoAxeViolations(page);
  // Answering goes on offline.
  await page.getByRole("radiogroup", { name: "Sex assigned at birth" }).getByRole("radio", { name: "Female", exact: true }).check();
  await expect(status).toHaveText("saved on this device");

  // Elsewhere the global dialog still says there is no internet (spec 01 §8).
  await page.goto("/documents/all");
  await expect(page.getByText(OFFLINE)).toBeVisible();

  // Back online, the device's answers reach the server.
  await context.setOffline(false);
  await page.goto(`/survey?startType=Pin&surveyQueueId=${queueId}`);
  await expect(status).toHaveText("saved", { timeout: 10_000 });
  const run = await (await request.get(`/api/surveyRun/${queueId}`)).json();
  expect(run.Answers).toEqual({ height_in: "64", weight_lb: "150", sex_at_birth: "female" });
});

test("the web app manifest is served, valid and makes the app installable", async ({ page, request }) => {
  await page.goto("/survey");
  const href = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(href).toBe("/manifest.webmanifest");
  const r = await request.get(href!);
  expect(r.ok()).toBe(true);
  expect(r.headers()["content-type"]).toMatch(/^application\/(manifest\+)?json/);
  const manifest = await r.json();
  expect(manifest).toMatchObject({ name: "Imaging Patient Portal", display: "standalone", start_url: "/survey", scope: "/" });
  for (const icon of manifest.icons as { src: string; sizes: string; type: string }[]) {
    const res = await request.get(icon.src);
    expect(res.ok()).toBe(true);
    expect(res.headers()["content-type"]).toBe("image/png");
    const png = await res.body();
    const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    expect(`${w}x${h}`).toBe(icon.sizes);
  }
  expect((manifest.icons as { sizes: string }[]).map((i) => i.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));

  // Chromium's own reading of it: no manifest errors, nothing that stops installation.
  const cdp = await page.context().newCDPSession(page);
  const parsed = (await cdp.send("Page.getAppManifest")) as { url: string; errors: { message: string }[] };
  expect(parsed.url).toMatch(/\/manifest\.webmanifest$/);
  expect(parsed.errors).toEqual([]);
  // 'in-incognito' is the test's browser context (Playwright contexts are off the record), not the app.
  await expect
    .poll(
      async () =>
        ((await cdp.send("Page.getInstallabilityErrors")) as { installabilityErrors: { errorId: string }[] }).installabilityErrors
          .map((e) => e.errorId)
          .filter((id) => id !== "in-incognito"),
      { timeout: 15_000 },
    )
    .toEqual([]);
});
