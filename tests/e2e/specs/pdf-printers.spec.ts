import { expect, test, type Page } from "./fixtures";
import { CupsServer } from "./cups";
import { DocumentsSettingsApi } from "./documents-settings-api";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Documents Settings > pdf-printers (spec 03 §2; issue 16): the print server's printers come from
// a real CUPS scheduler the spec starts on loopback; the enabled list with its X, the select to
// add one, Save Printers, 'There no printers enabled.'; a letter printed from the documents page
// arrives at the scheduler as a PDF; a print server that is down is said plainly.
test.describe.configure({ mode: "serial" });

const SAVED = "Configuration has been successfully saved!";
const PAGE = "/admin/patient-result-portal-settings/documents/pdf-printers";

let cups: CupsServer;
let api: DocumentsSettingsApi;

test.beforeAll(async ({ browser }) => {
  cups = await CupsServer.start(["Front_Desk", "Radiology-2"]);
  api = await DocumentsSettingsApi.open(browser);
  await api.save("DocumentsPdfPrinters", { PrintServer: cups.address, EnabledPrinters: [] });
});

test.afterAll(async () => {
  await api?.restore();
  cups?.dispose();
});

async function open(page: Page) {
  await signIn(page, "staff", "manager");
  await page.goto(PAGE);
}

test("pdf-printers: enable from the print server's printers, remove with X, Save Printers", async ({ page }) => {
  test.setTimeout(120_000);
  await open(page);
  const panel = page.getByRole("region", { name: "PDF Printers" });
  await expect(panel.getByText("There no printers enabled.")).toBeVisible({ timeout: 30_000 });
  const add = panel.getByLabel("Add a printer", { exact: true });
  await expect(add.locator("option", { hasText: "Front_Desk" })).toHaveCount(1);
  await add.selectOption("Front_Desk");
  await add.selectOption("Radiology-2");
  const list = panel.getByRole("list", { name: "Enabled printers" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(panel.getByText("There no printers enabled.")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await panel.getByRole("button", { name: "Remove Radiology-2" }).click();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await panel.getByRole("button", { name: "Save Printers" }).click();
  await expect(page.getByText(SAVED)).toBeVisible();
  await page.reload();
  await expect(page.getByRole("list", { name: "Enabled printers" }).getByRole("listitem")).toHaveText([/Front_Desk/], { timeout: 30_000 });
  // The print server's address is a setting of its own.
  await expect(page.getByLabel("Print server (CUPS) address", { exact: true })).toHaveValue(cups.address);
});

test("staff print a letter from the documents page: its PDF arrives at the printer", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "staff", "manager");
  await page.goto("/documents/all");
  await page.getByLabel("Patient MRN").fill("100001");
  await page.getByRole("button", { name: "Search" }).click();
  const before = cups.jobDocuments().length;
  await page.getByRole("button", { name: "Print" }).first().click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByLabel("Printer", { exact: true })).toHaveValue("Front_Desk");
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Print" }).click();
  await expect(dialog.getByRole("status")).toHaveText("The letter was sent to Front_Desk.");
  await expect.poll(() => cups.jobDocuments().length, { timeout: 10_000 }).toBe(before + 1);
  expect(cups.jobDocuments()[before].subarray(0, 5).toString()).toBe("%PDF-");
});

test("pdf-printers at 1280, 820 and 390 px; a print server that is down is said plainly", async ({ page }) => {
  test.setTimeout(180_000);
  await open(page);
  await expect(page.getByRole("list", { name: "Enabled printers" })).toBeVisible({ timeout: 30_000 });
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/pdf-printers-${width}.png`, fullPage: true });
    await expectNoAxeViolations(page);
  }
  cups.stop();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.reload();
  await expect(page.getByText(`The print server at ${cups.address} could not be reached`)).toBeVisible({ timeout: 30_000 });
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/pdf-printers-down-1280.png`, fullPage: true });
});
