import { expect, test } from "../specs/fixtures";
import { freshSurvey, rng, staffApi } from "../specs/survey-seed";

// Bench (bench/surveys.sh, not a CI test): autosave to IndexedDB in normal use. A patient answers
// the first pages of the breast-imaging history at a person's pace (typing key by key, a pause of
// 0.3-0.9 s between answers) on a working network, while the runner uploads in the background.
// The runner measures each change itself (performance.measure 'survey-device-write': from the
// change to its encrypted write committed in IndexedDB).

const ANSWERS = Number(process.env.PACE_ANSWERS ?? 120);
const SEED = 20261123;

test("autosave to IndexedDB at a person's pace", async ({ page, request }) => {
  test.setTimeout(ANSWERS * 2_000 + 60_000);
  const random = rng(SEED);
  const pause = () => page.waitForTimeout(300 + Math.floor(random() * 600));
  await page.goto("/survey");
  const { pin } = await freshSurvey(request, await staffApi(request), "BIH-001");
  await page.getByLabel("Enter your 4-digit PIN").fill(pin);
  await page.getByRole("button", { name: "Start" }).click();
  // Typed key by key: each key is a change the runner writes.
  await page.getByLabel("Height (inches)").pressSequentially("64", { delay: 180 });
  await pause();
  await page.getByLabel("Weight (pounds)").pressSequentially("140", { delay: 180 });
  await pause();
  await page.getByRole("radiogroup", { name: "Sex assigned at birth" }).getByRole("radio", { name: "Female", exact: true }).check();
  await pause();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("radiogroup", { name: /breast problems or symptoms/ }).getByRole("radio", { name: "Yes", exact: true }).check();
  const labels = ["Lump or thickening", "Pain or tenderness", "Nipple discharge", "Nipple turning inward", "Skin dimpling, redness or rash"];
  const sides = ["Left", "Right", "Both"];
  let writes = 0;
  while (writes < ANSWERS) {
    await pause();
    const r = random();
    if (r < 0.6) {
      const box = page.getByLabel(labels[Math.floor(random() * labels.length)], { exact: true });
      await ((await box.isChecked()) ? box.uncheck() : box.check());
    } else {
      await page.getByRole("radiogroup", { name: "Which breast?" }).getByRole("radio", { name: sides[Math.floor(random() * sides.length)], exact: true }).check();
    }
    writes = await page.evaluate(() => performance.getEntriesByName("survey-device-write").length);
  }
  await expect(page.getByRole("status").filter({ hasText: /sav/ })).toHaveText("saved", { timeout: 15_000 });
  const durations = await page.evaluate(() => performance.getEntriesByName("survey-device-write").map((e) => e.duration));
  const sorted = [...durations].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(2);
  console.log(`autosave to IndexedDB at a person's pace, ${sorted.length} writes: p50 ${pct(50)} ms, p95 ${pct(95)} ms, max ${pct(100)} ms`);
  expect(sorted.length).toBeGreaterThanOrEqual(ANSWERS);
});
