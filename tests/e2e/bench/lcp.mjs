// Largest Contentful Paint of the patient pages (issue 22: under 1.0 s on loopback). Lighthouse
// is not installed on this machine, so this reads LCP the way Lighthouse does underneath: a
// PerformanceObserver for 'largest-contentful-paint' (buffered) in Debian's Chromium, at
// Lighthouse's desktop size (1350x940), each page loaded cold (a new browser context: no HTTP or
// service-worker cache) with the signed-in patient's cookies. No network throttling (loopback).
//   node tests/e2e/bench/lcp.mjs BASE_URL [RUNS]   -> one "path median min max" line per page (ms)
import { chromium } from "@playwright/test";

const base = process.argv[2];
const runs = Number(process.argv[3] ?? 5);
const pages = ["/home", "/documents/unread", "/documents/all", "/appointments", "/medical-history/assigned"];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
});
const viewport = { width: 1350, height: 940 };

// Sign in once as a person does; later contexts start from its cookies only.
const login = await browser.newContext({ baseURL: base, viewport });
const page = await login.newPage();
await page.goto("/patient/login");
await page.getByLabel("Username or Email").fill("jane.doe");
await page.getByLabel("Password", { exact: true }).fill("Portal!2026");
const answered = page.waitForResponse((r) => /\/api\/patientUser\/login$/.test(r.url()));
await page.getByRole("button", { name: "Log In" }).click();
await answered;
const cookies = await login.cookies();
await login.close();

const lcpOf = async (path) => {
  const ctx = await browser.newContext({ baseURL: base, viewport, serviceWorkers: "block" });
  await ctx.addCookies(cookies);
  const p = await ctx.newPage();
  await p.goto(path, { waitUntil: "networkidle" });
  const lcp = await p.evaluate(
    () =>
      new Promise((resolve) => {
        let last = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) last = e.startTime;
        }).observe({ type: "largest-contentful-paint", buffered: true });
        setTimeout(() => resolve(last), 300);
      }),
  );
  if (!new URL(p.url()).pathname.startsWith(path.split("/").slice(0, 2).join("/"))) {
    throw new Error(`${path} ended at ${p.url()}`);
  }
  await ctx.close();
  return lcp;
};

for (const path of pages) {
  await lcpOf(path); // one warm-up of the server (not of the browser: each run is a new context)
  const xs = [];
  for (let i = 0; i < runs; i++) xs.push(await lcpOf(path));
  xs.sort((a, b) => a - b);
  console.log(`${path} ${xs[Math.floor(xs.length / 2)].toFixed(0)} ${xs[0].toFixed(0)} ${xs[xs.length - 1].toFixed(0)}`);
}
await browser.close();
