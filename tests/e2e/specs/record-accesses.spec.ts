import { expect, test, type Page } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

/** How many staff accesses Jane's own list holds (her session's call, as the page makes it). */
async function accessCount(page: Page): Promise<number> {
  const csrf = (await page.context().cookies()).find((c) => c.name === "portal_csrf")?.value ?? "";
  const answer = await page.request.post("/api/account/recordAccesses", { data: { PageIndex: 0, PageSize: 10 }, headers: { "X-CSRF-Token": csrf } });
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { TotalCount: number }).TotalCount;
}

// Issue 15 "The patient sees who opened their record": the program manager opens Jane's letters
// from the Documents page (Patient MRN search) and one of them; Jane, in her own browser, then
// finds both accesses on her account page, with the manager's name, role and what was done.

test.describe.configure({ timeout: 120_000 });

test("a staff member opens Jane's letters and Jane sees it under 'Who opened my record'", async ({ browser }) => {
  const own = await browser.newContext();
  const jane = await own.newPage();
  await signIn(jane, "patient", "jane.doe");
  await jane.goto("/account/change-password");
  const before = await accessCount(jane);

  const staff = await browser.newContext();
  const manager = await staff.newPage();
  await signIn(manager, "staff", "manager");
  await manager.goto("/documents");
  await manager.getByLabel("Patient MRN").fill("100001");
  const loaded = manager.waitForResponse((r) => r.url().endsWith("/api/documents/loadDocuments") && r.request().postData()?.includes("100001") === true);
  await manager.getByRole("button", { name: "Search", exact: true }).click();
  expect((await loaded).status()).toBe(200);
  const letters = manager.getByRole("table", { name: "Letters" });
  await manager.getByRole("link", { name: /All Letters/ }).click();
  const row = letters.locator("tbody tr", { hasText: "Breast Density Notification" });
  const pdf = manager.waitForResponse((r) => r.url().includes("/api/documents/letterPdf"));
  await row.getByRole("button", { name: "View" }).click();
  expect((await pdf).status()).toBe(200);
  await expect(manager.getByRole("dialog").getByRole("heading")).toContainText("Jane Doe - Patient ID: 100001");
  await manager.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await staff.close();

  // Two new rows (other specs running beside this one may add more, never fewer).
  expect(await accessCount(jane)).toBeGreaterThanOrEqual(before + 2);
  await jane.reload();
  await expect(jane.getByRole("heading", { name: "Who opened my record" })).toBeVisible();
  const accesses = jane.getByRole("table", { name: "Staff accesses to my record" });
  // The manager's two accesses: the letter opened and her letters list, with who, role and when.
  const byManager = accesses.locator("tbody tr", { hasText: "Pat Morgan" });
  await expect(byManager.filter({ hasText: "Letter opened" }).first()).toBeVisible();
  await expect(byManager.filter({ hasText: "Record opened" }).first()).toBeVisible();
  await expect(byManager.first()).toContainText(/Program ?Manager/);
  await expect(byManager.first()).toContainText(/\d{2}\/\d{2}\/\d{4}/);
  for (const header of ["When", "Who", "Role", "What"]) await expect(accesses.getByRole("columnheader", { name: header })).toBeVisible();
  await expectNoAxeViolations(jane);
  for (const width of [1280, 820, 390]) {
    await jane.setViewportSize({ width, height: 900 });
    await jane.screenshot({ path: `${SCREENSHOTS}/record-accesses-${width}.png`, fullPage: true });
  }
  await own.close();
});
