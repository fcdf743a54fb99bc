import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, test, type Page } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Issue 21: Dynamic Labels export and import for a human translator. The Khmer file is exported,
// one translation edited as a translator would, imported (preview Key / English / Old / New, then
// Confirm), and the patient sign-in page shows the new Khmer text. A file with a bad row shows
// the row's message and changes nothing; the first file imported again after the change is stale
// (409). The label is put back at the end (a second export and import) for the other specs.
test.describe.configure({ mode: "serial", timeout: 180_000 });

const PAGE = "/admin/core-settings/dynamic-labels";
const KEY = "Login_PatientLead";
const LOGIN = JSON.parse(readFileSync(fileURLToPath(new URL("../../../wasm-core/labels/login.json", import.meta.url)), "utf8")) as Record<string, Record<string, string>>;
const SHIPPED_KM = LOGIN[KEY].km;
const ENGLISH = LOGIN[KEY].en;
const EDITED_KM = "សូមចូលដើម្បីមើលការណាត់ជួប និងលិខិតរបស់អ្នក (E2E)";

async function exportKhmer(page: Page): Promise<string> {
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Export Labels" });
  await dialog.getByLabel("Language").selectOption("cambodian");
  const download = page.waitForEvent("download");
  await dialog.getByRole("button", { name: "Download" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("labels-km.csv");
  await expect(dialog).toBeHidden();
  return readFileSync(await file.path(), "utf8");
}

/** The translator's edit: the row of `KEY` gets `to` in place of its Translation `from`. */
function edit(csv: string, from: string, to: string): string {
  const row = csv.split(/\r?\n/).find((l) => l.startsWith(`${KEY},`));
  expect(row, "the exported file has the label's row").toBeTruthy();
  expect(row).toContain(from);
  return csv.replace(row!, row!.replace(from, to));
}

async function openImport(page: Page, csv: string) {
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Import Labels" });
  await dialog.getByLabel("Language").selectOption("cambodian");
  await dialog.getByLabel("Translator's file").setInputFiles({ name: "labels-km.csv", mimeType: "text/csv", buffer: Buffer.from(csv, "utf8") });
  await dialog.getByRole("button", { name: "Preview" }).click();
  return dialog;
}

async function patientLeadInKhmer(page: Page): Promise<string> {
  const origin = new URL(process.env.PORTAL_URL!).origin;
  const context = await page.context().browser()!.newContext({
    baseURL: origin,
    storageState: { cookies: [], origins: [{ origin, localStorage: [{ name: "portal.language", value: "cambodian" }] }] },
  });
  const patient = await context.newPage();
  await patient.goto("/patient/login");
  await expect(patient.locator("html")).toHaveAttribute("lang", "km");
  const lead = patient.getByText(new RegExp(`^(${escape(SHIPPED_KM)}|${escape(EDITED_KM)})$`));
  await expect(lead).toBeVisible();
  const text = (await lead.textContent()) ?? "";
  await context.close();
  return text;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("export Khmer, a bad row changes nothing, edit one translation, preview, confirm, the sign-in page shows it", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto(PAGE);
  await expect(page.getByRole("region", { name: "Dynamic Labels Management" })).toBeVisible();
  expect(await patientLeadInKhmer(page)).toBe(SHIPPED_KM);

  const csv = await exportKhmer(page);
  expect(csv.split(/\r?\n/)[0]).toBe("Key,Revision,Context,English,Translation");
  const edited = edit(csv, SHIPPED_KM, EDITED_KM);

  // A bad row (a key the portal does not have) beside the good edit: its message, nothing stored.
  const bad = edited.replace(/^Login_StaffLead,/m, "Login_NoSuchLabel,");
  const badLine = bad.split(/\r?\n/).findIndex((l) => l.startsWith("Login_NoSuchLabel,")) + 1;
  let dialog = await openImport(page, bad);
  await expect(dialog.getByRole("alert")).toContainText("Nothing was imported.");
  await expect(dialog.getByRole("alert")).toContainText(`Line ${badLine} (Login_NoSuchLabel): there is no label with this key`);
  await expect(dialog.getByRole("region", { name: "Import preview" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOTS}/labels-import-errors-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect(await patientLeadInKhmer(page)).toBe(SHIPPED_KM);

  // The translator's file: the preview lists the one change, Confirm stores it.
  dialog = await openImport(page, edited);
  const preview = dialog.getByRole("region", { name: "Import preview" });
  await expect(preview.getByRole("status")).toContainText("1 label changes; ");
  for (const header of ["Key", "English", "Old", "New"]) await expect(preview.getByRole("columnheader", { name: header })).toBeVisible();
  const row = preview.getByRole("row", { name: new RegExp(KEY) });
  await expect(row.getByRole("rowheader")).toHaveText(KEY);
  await expect(row.getByRole("cell")).toHaveText([ENGLISH, SHIPPED_KM, EDITED_KM]);
  await expectNoAxeViolations(page);
  for (const [width, height] of [[1280, 800], [820, 1180], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SCREENSHOTS}/labels-import-preview-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await patientLeadInKhmer(page)).toBe(SHIPPED_KM);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByText("The translations were saved.")).toBeVisible();
  await expect(dialog).toBeHidden();
  expect(await patientLeadInKhmer(page)).toBe(EDITED_KM);

  // The first file again: the label was saved since its export (409), nothing stored.
  dialog = await openImport(page, edited);
  await expect(dialog.getByRole("alert")).toContainText("These labels were changed after the file was exported");
  await expect(dialog.getByRole("alert")).toContainText(KEY);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // Put the shipped text back: a new export, the row edited back, imported.
  const again = edit(await exportKhmer(page), EDITED_KM, SHIPPED_KM);
  dialog = await openImport(page, again);
  await expect(dialog.getByRole("region", { name: "Import preview" }).getByRole("row", { name: new RegExp(KEY) }).getByRole("cell")).toHaveText([ENGLISH, EDITED_KM, SHIPPED_KM]);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await expect(dialog).toBeHidden();
  expect(await patientLeadInKhmer(page)).toBe(SHIPPED_KM);
});

test("XLIFF 1.2: the Khmer file exported and a translator's target previewed; Export and Import at three widths", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto(PAGE);
  await page.getByRole("button", { name: "Export", exact: true }).click();
  const exporting = page.getByRole("dialog", { name: "Export Labels" });
  await exporting.getByLabel("Language").selectOption("cambodian");
  await exporting.getByLabel("Format").selectOption("XLIFF");
  const download = page.waitForEvent("download");
  await exporting.getByRole("button", { name: "Download" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("labels-km.xlf");
  const xliff = readFileSync(await file.path(), "utf8");
  expect(xliff).toContain('<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">');
  const unit = new RegExp(`(<trans-unit id="${KEY}" [^>]*>[\\s\\S]*?<target[^>]*>)([^<]*)(</target>)`);
  expect(xliff).toMatch(unit);
  const edited = xliff.replace(unit, `$1${EDITED_KM}$3`);
  // Preview only (the first test stores a change): the format follows the .xlf extension.
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Import Labels" });
  await dialog.getByLabel("Language").selectOption("cambodian");
  await dialog.getByLabel("Translator's file").setInputFiles({ name: "labels-km.xlf", mimeType: "application/x-xliff+xml", buffer: Buffer.from(edited, "utf8") });
  await expect(dialog.getByLabel("Format")).toHaveValue("XLIFF");
  await dialog.getByRole("button", { name: "Preview" }).click();
  const row = dialog.getByRole("region", { name: "Import preview" }).getByRole("row", { name: new RegExp(KEY) });
  await expect(row.getByRole("cell").last()).toHaveText(EDITED_KM);
  await dialog.getByRole("button", { name: "Cancel" }).click();

  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Import Labels" })).toBeVisible();
  await expectNoAxeViolations(page);
  for (const [width, height] of [[1280, 800], [820, 1180], [390, 844]]) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${SCREENSHOTS}/labels-import-${width}.png` });
  }
  await page.getByRole("dialog", { name: "Import Labels" }).getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Export", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Export Labels" })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENSHOTS}/labels-export-390.png` });
});
