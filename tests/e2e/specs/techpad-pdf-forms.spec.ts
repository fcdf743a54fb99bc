import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Techpad PDF forms (issue 18; spec 04 §2 "pdf-forms | a list only; its contents are not
// shown"): the list of forms the technologists' tablet offers, upload with wasm-core's and the
// server's messages, download, delete with a confirmation; the tablet reads the same list.
test.describe.configure({ mode: "serial", timeout: 120_000 });

const PAGE = "/admin/techpad-settings/pdf-forms";

/** A small real PDF of `pages` pages (objects, xref table and trailer with true offsets). */
function pdf(pages: number): Buffer {
  const objects: string[] = [];
  const kids = Array.from({ length: pages }, (_, i) => `${3 + i} 0 R`).join(" ");
  objects.push("<< /Type /Catalog /Pages 2 0 R >>");
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`);
  for (let i = 0; i < pages; i++) objects.push("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>");
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, "0")} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

async function openPage(page: Page) {
  await signIn(page, "staff", "manager");
  await page.goto(PAGE);
  await expect(page.getByRole("form", { name: "Upload PDF Form" })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("table", { name: "PDF Forms" })).toBeVisible();
}

test("the menu leads to PDF Forms; upload, list, download and delete a form", async ({ page }) => {
  await openPage(page);
  const tabs = page.getByRole("navigation", { name: "Techpad Settings" });
  await expect(tabs.getByRole("link", { name: "PDF Forms", exact: true })).toHaveAttribute("aria-current", "page");
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await expect(menu.getByRole("link", { name: "PDF Forms" })).toHaveAttribute("href", PAGE);
  await expect(page.getByText("The PDF forms the technologists’ tablet offers")).toBeVisible();
  await expectNoAxeViolations(page);

  const name = `Contrast consent ${Date.now()}`;
  const form = page.getByRole("form", { name: "Upload PDF Form" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/PDF file/).setInputFiles({ name: "contrast-consent.pdf", mimeType: "application/pdf", buffer: pdf(2) });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText(`PDF form '${name}' uploaded`)).toBeVisible();
  const table = page.getByRole("table", { name: "PDF Forms" });
  const row = table.getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("contrast-consent.pdf");
  await expect(row.getByRole("cell").nth(2)).toHaveText("2");
  await expect(row).toContainText(/\d+ B|KB/);
  await expect(row).toContainText(/\d{2}\/\d{2}\/\d{4}/);
  await expect(form.getByLabel("Name")).toHaveValue("");

  // The tablet reads the same list with its configuration (the program manager may read it too).
  const config = await page.request.get("/api/techpad/configuration");
  const forms = ((await config.json()) as { PdfForms: { Name: string; Pages: number }[] }).PdfForms;
  expect(forms.find((f) => f.Name === name)?.Pages).toBe(2);

  // Download: the file as uploaded.
  const download = page.waitForEvent("download");
  await row.getByRole("link", { name: `Download ${name}` }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("contrast-consent.pdf");

  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(PAGE);
    await expect(page.getByRole("table", { name: "PDF Forms" }).getByRole("row").filter({ hasText: name })).toBeVisible({ timeout: 30_000 });
    await page.screenshot({ path: `${SCREENSHOTS}/techpad-pdf-forms-${width}.png`, fullPage: true });
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(PAGE);

  // Delete asks first; Cancel keeps it, Delete removes it.
  const again = page.getByRole("table", { name: "PDF Forms" }).getByRole("row").filter({ hasText: name });
  await again.getByRole("button", { name: `Delete ${name}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete PDF Form" });
  await expect(confirm).toContainText(`Are you sure you want to delete the PDF form ‘${name}’?`);
  await expectNoAxeViolations(page);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(again).toBeVisible();
  await again.getByRole("button", { name: `Delete ${name}` }).click();
  await page.getByRole("dialog", { name: "Delete PDF Form" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText(`PDF form '${name}' deleted`)).toBeVisible();
  await expect(again).toHaveCount(0);
});

test("bad uploads: the rule's messages in the browser and the server's under the same fields", async ({ page }) => {
  await openPage(page);
  const form = page.getByRole("form", { name: "Upload PDF Form" });
  // Nothing filled in: wasm-core's messages, the 'Form is invalid' toast, nothing sent.
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Form is invalid" })).toBeVisible();
  await expect(form.getByText("Name is required")).toBeVisible();
  await expect(form.getByText("Choose a PDF file")).toBeVisible();
  await expectNoAxeViolations(page);

  // A file that is not a PDF: the server reads it and says so under the file.
  await form.getByLabel("Name").fill(`Not a PDF ${Date.now()}`);
  await form.getByLabel(/PDF file/).setInputFiles({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("just some text") });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(form.getByText("The file is not a PDF document.")).toBeVisible();

  // Too large: refused in the browser before it is sent.
  const big = Buffer.concat([pdf(1), Buffer.alloc(1024 * 1024, 0x20)]);
  await form.getByLabel(/PDF file/).setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: big });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(form.getByText("The file is larger than 1 MB.")).toBeVisible();

  // A name already used (any case): the server's message under Name.
  const name = `Screening ${Date.now()}`;
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/PDF file/).setInputFiles({ name: "screening.pdf", mimeType: "application/pdf", buffer: pdf(1) });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText(`PDF form '${name}' uploaded`)).toBeVisible();
  await form.getByLabel("Name").fill(name.toUpperCase());
  await form.getByLabel(/PDF file/).setInputFiles({ name: "screening2.pdf", mimeType: "application/pdf", buffer: pdf(1) });
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(form.getByText("A PDF form with this name already exists.")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/techpad-pdf-forms-errors.png`, fullPage: true });

  // Clean up: delete the one stored.
  const row = page.getByRole("table", { name: "PDF Forms" }).getByRole("row").filter({ hasText: name });
  await row.getByRole("button", { name: `Delete ${name}` }).click();
  await page.getByRole("dialog", { name: "Delete PDF Form" }).getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
});
