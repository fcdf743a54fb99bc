import { expect, test } from "./fixtures";
import { PATIENT_STATE, SCREENSHOTS, signIn } from "./helpers";

interface Letter {
  Id: number;
  AccessToken: string;
  Type: string;
  IsAlreadyRead: boolean;
}

// These tests change Jane's letters (read, acknowledged): one after the other.
test.describe.configure({ mode: "serial" });
test.use({ storageState: PATIENT_STATE });

function badge(page: import("@playwright/test").Page, tab: RegExp) {
  return page.getByRole("navigation", { name: "Documents" }).getByRole("link", { name: tab }).locator(".badge");
}

test("open a letter, read it, acknowledge it; badges and stamps follow", async ({ page }) => {
  const loaded = page.waitForResponse((r) => r.url().endsWith("/api/documents/loadDocuments"));
  await page.goto("/documents");
  const body = (await (await loaded).json()) as { list: Letter[] };
  const unreadBefore = body.list.filter((l) => !l.IsAlreadyRead).length;
  expect(unreadBefore).toBeGreaterThan(1);
  await expect(page).toHaveURL(/\/documents\/unread$/);
  await expect(badge(page, /Unread Letters/)).toHaveText(String(unreadBefore));
  await expect(badge(page, /All Letters/)).toHaveText(String(body.list.length));
  await page.screenshot({ path: `${SCREENSHOTS}/documents-desktop.png`, fullPage: true });

  const table = page.getByRole("table", { name: "Letters" });
  const row = table.locator("tbody tr", { hasText: "Breast Density Notification" });
  await expect(row.getByRole("button", { name: "Acknowledge" })).toBeDisabled();
  const pdf = page.waitForResponse((r) => r.url().includes("/api/documents/letterPdf"));
  await row.getByRole("button", { name: "View" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading")).toContainText("Jane Doe - Patient ID: 100001");
  const pdfResponse = await pdf;
  expect(pdfResponse.status()).toBe(200);
  expect(pdfResponse.headers()["content-type"]).toBe("application/pdf");
  await expect(dialog.locator("iframe")).toHaveAttribute("src", /letterPdf\?accessToken=/);
  await page.screenshot({ path: `${SCREENSHOTS}/documents-viewer.png` });
  await dialog.getByRole("button", { name: "Close" }).click();

  // Closing the letter asks to acknowledge it.
  const confirm = page.getByRole("dialog", { name: "Acknowledge letter" });
  await expect(confirm).toBeVisible();
  const ack = page.waitForResponse((r) => r.url().endsWith("/api/documents/acknowledge"));
  await confirm.getByRole("button", { name: "Yes" }).click();
  expect((await ack).status()).toBe(200);
  await expect(badge(page, /Unread Letters/)).toHaveText(String(unreadBefore - 1));

  await page.getByRole("link", { name: /All Letters/ }).click();
  await expect(page).toHaveURL(/\/documents\/all$/);
  const done = page.getByRole("table", { name: "Letters" }).locator("tbody tr", { hasText: "Breast Density Notification" });
  await expect(done.getByText(/^On \w+day, /)).toHaveCount(2);
  await expect(done.getByRole("button", { name: "Acknowledge" })).toBeDisabled();
});

test("an ack-on-view letter is acknowledged after the delay", async ({ page }) => {
  await page.goto("/documents/all");
  const row = page.getByRole("table", { name: "Letters" }).locator("tbody tr", { hasText: "Annual Screening Reminder" });
  const auto = page.waitForResponse((r) => r.url().endsWith("/api/documents/readAndAcknowledge"), { timeout: 15_000 });
  await row.getByRole("button", { name: "View" }).click();
  expect((await auto).status()).toBe(200);
  await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  await expect(row.getByText(/^On \w+day, /)).toHaveCount(2);
});

test("below 420 px a letter opens on its own page", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await page.goto("/documents/all");
  await page.getByRole("table", { name: "Letters" }).getByRole("button", { name: "View" }).first().click();
  await expect(page).toHaveURL(/\/Documents\/ViewPdf\/[^/]+$/);
  await expect(page.locator("iframe")).toHaveAttribute("src", /^\/Scripts\/pdfjs\/web\/viewer\.html\?file=%2Fapi%2Fdocuments%2FletterPdf%3FaccessToken%3D/);
});

test("another patient cannot open Jane's letter", async ({ page, browser }) => {
  const loaded = page.waitForResponse((r) => r.url().endsWith("/api/documents/loadDocuments"));
  await page.goto("/documents/all");
  const body = (await (await loaded).json()) as { list: Letter[] };
  const token = body.list[0].AccessToken;
  const own = await page.request.get(`/api/documents/letterPdf?accessToken=${encodeURIComponent(token)}`);
  expect(own.status()).toBe(200);

  const maria = await browser.newContext({ storageState: undefined });
  const mariaPage = await maria.newPage();
  await signIn(mariaPage, "patient", "maria.garcia");
  await expect(mariaPage).toHaveURL(/\/home$/);
  const foreign = await mariaPage.request.get(`/api/documents/letterPdf?accessToken=${encodeURIComponent(token)}`);
  expect(foreign.status()).toBe(404);
  await mariaPage.goto(`/Documents/ViewPdf/${encodeURIComponent(token)}`);
  await maria.close();
});
