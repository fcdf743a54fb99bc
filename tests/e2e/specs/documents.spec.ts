import { expect, test } from "./fixtures";
import { DocumentsSettingsApi } from "./documents-settings-api";
import { expectNoAxeViolations, PATIENT_STATE, SCREENSHOTS, signIn } from "./helpers";
import { startOwnPortal } from "./own-portal";

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
  await page.getByRole("list", { name: "Letters" }).getByRole("button", { name: /^View / }).first().click();
  await expect(page).toHaveURL(/\/Documents\/ViewPdf\/[^/]+$/);
  await expect(page.locator("iframe")).toHaveAttribute("src", /^\/Scripts\/pdfjs\/web\/viewer\.html\?file=%2Fapi%2Fdocuments%2FletterPdf%3FaccessToken%3D/);
});

// Issue 20: on a phone the letters are a compact list (title, date, status badge, View, and
// Acknowledge inline), not a card of label/value rows; no sort chips.
test("on a phone the letters are a compact list with inline acknowledge", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/documents/all");
  const list = page.getByRole("list", { name: "Letters" });
  await expect(list.getByRole("listitem").first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Letters" })).toHaveCount(0);
  await expect(page.locator(".sort-button")).toHaveCount(0);
  const item = list.getByRole("listitem").filter({ hasText: "Breast Density Notification" });
  await expect(item.locator(".letter-title")).toHaveText("Breast Density Notification");
  await expect(item.locator(".letter-badge")).toHaveText(/^(Unread|Read|Acknowledged)$/);
  await expect(item.getByRole("button", { name: "View Breast Density Notification" })).toBeVisible();
  // Each row is one short line, not seven label/value rows.
  const box = await item.boundingBox();
  expect(box?.height ?? 999).toBeLessThan(160);
  // A letter that may be acknowledged shows Acknowledge in its row; it asks first.
  const ackable = list.getByRole("listitem").filter({ has: page.getByRole("button", { name: /^Acknowledge / }) });
  const enabled = ackable.filter({ has: page.locator("button:not([disabled])", { hasText: "Acknowledge" }) }).first();
  if ((await enabled.count()) > 0) {
    await enabled.getByRole("button", { name: /^Acknowledge / }).click();
    const confirm = page.getByRole("dialog", { name: "Acknowledge letter" });
    await expect(confirm).toBeVisible();
    await confirm.getByRole("button", { name: "No" }).click();
  }
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/documents-phone-list.png`, fullPage: true });
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

// Documents Settings (spec 03 §2 general-documents, issue 16): every setting the patient can see
// changes her Documents page at once (the next load, no restart). The program manager saves each
// group through the settings API. The settings are the clinic's, read by every documents page:
// on a portal of this test's own, so the specs running beside it see the shipped texts.
test("the documents settings change Jane's Documents page at once", async ({ browser }) => {
  test.setTimeout(240_000);
  const portal = await startOwnPortal("documents-settings");
  const context = await browser.newContext({ baseURL: portal.base, storageState: undefined });
  const page = await context.newPage();
  await signIn(page, "patient", "jane.doe");
  await expect(page).toHaveURL(/\/home$/);
  const api = await DocumentsSettingsApi.open(browser, portal.base);
  try {
    const table = page.getByRole("table", { name: "Letters" });
    // The titles as written (the header styles them in capitals and adds a sort mark).
    const headers = async () => (await table.getByRole("columnheader").allTextContents()).map((h) => h.replace(/[^\p{L}\p{N} ]/gu, "").trim());
    // Loaded, not only drawn: while the list loads the table's one row says "Loading…".
    const all = async () => {
      await page.goto("/documents/all");
      await expect(table.locator("tbody tr").first()).toBeVisible();
      await expect(table).not.toHaveAttribute("aria-busy", "true");
      await expect(table.locator("td.data-table-empty")).toHaveCount(0);
    };

    // Column Titles, with the two columns that are off by default turned on.
    const titles = {
      DocViewWhenColumnTitle: "Sent on",
      DocTypeColumnTitle: "Kind",
      DocPatNameColumnTitle: "Who",
      DocStudyDateColTitle: "Exam date",
      DocStudyDescColTitle: "Exam",
      DocNotifTypeColumnTitle: "Channel",
      DocViewColumnTitle: "Open it",
      DocReadColumnTitle: "Seen",
      DocAckColumnTitle: "Confirmed",
      OtherDocDateColTitle: "Filed on",
    };
    await api.save("DocumentsColumnTitle", titles);
    await api.save("DocumentsEssential", { ShowPatNameColumn: true, ShowNotifTypeColumn: true });
    await all();
    const shown = (await headers());
    for (const [field, title] of Object.entries(titles)) {
      if (field !== "OtherDocDateColTitle") expect(shown, field).toContain(title);
    }
    await page.goto("/documents/other");
    await expect(table.getByRole("columnheader", { name: "Filed on" })).toBeVisible();

    // Each Show ... Column switch takes its column away.
    const switches: [string, string][] = [
      ["ShowPatNameColumn", "Who"],
      ["ShowStudyDateColumn", "Exam date"],
      ["ShowStudyDescColumn", "Exam"],
      ["ShowNotifTypeColumn", "Channel"],
      ["ShowReadColumn", "Seen"],
      ["ShowAckColumn", "Confirmed"],
      ["ShowDateWhenSentColumn", "Sent on"],
    ];
    for (const [field, title] of switches) {
      await api.save("DocumentsEssential", { [field]: false });
      await all();
      expect((await headers()), field).not.toContain(title);
      await api.save("DocumentsEssential", { [field]: true });
    }

    // Read folded into View: no Read column, the read stamp beside the View button.
    await api.save("DocumentsEssential", { CombineDocViewAndReadColumns: true });
    await all();
    expect((await headers())).not.toContain("Seen");
    await expect(table.locator("tbody tr", { hasText: "Annual Recall" }).getByRole("cell").filter({ has: page.getByRole("button", { name: "View" }) })).toContainText(/On \w+day, /);
    await api.save("DocumentsEssential", { CombineDocViewAndReadColumns: false });

    // An unread letter's disabled Acknowledge button is shown only with ShowAckWhenDisabled.
    const unreadRow = table.locator("tbody tr", { hasText: "Not Read" }).first();
    await all();
    await expect(unreadRow.getByRole("button", { name: "Acknowledge" })).toBeDisabled();
    await api.save("DocumentsEssential", { ShowAckWhenDisabled: false });
    await all();
    await expect(unreadRow.getByRole("button", { name: "Acknowledge" })).toHaveCount(0);
    await api.save("DocumentsEssential", { ShowAckWhenDisabled: true });

    // Compact view: its description above the letters, only Date, Type and View.
    await api.save("DocumentsEssential", { UCSDMode: true, CompactViewDocumentsDescription: "Your letters from Demo Breast Imaging" });
    await all();
    await expect(page.getByText("Your letters from Demo Breast Imaging")).toBeVisible();
    expect((await headers())).toEqual(["Sent on", "Kind", "Open it"]);
    await api.save("DocumentsEssential", { UCSDMode: false });
    await all();
    await expect(page.getByText("Your letters from Demo Breast Imaging")).toHaveCount(0);

    // The Other Documents tab.
    const tabs = page.getByRole("navigation", { name: "Documents" });
    await expect(tabs.getByRole("link", { name: /Other/ })).toBeVisible();
    await api.save("DocumentsEssential", { ShowOtherDocumentsTab: false });
    await all();
    await expect(tabs.getByRole("link", { name: /Other/ })).toHaveCount(0);
    await api.save("DocumentsEssential", { ShowOtherDocumentsTab: true });

    // Referring physician letters: hidden from patients unless ShowDoctorLettersToPatients; with
    // other documents when asked; their type text, like the notification and recall letters',
    // replaced by the alternate descriptions.
    await all();
    await expect(table.locator("tbody tr", { hasText: "Referring Physician" })).toHaveCount(0);
    await api.save("DocumentsEssential", { ShowDoctorLettersToPatients: true });
    await all();
    await expect(table.locator("tbody tr", { hasText: "Referring Physician" })).toHaveCount(1);
    await api.save("DocumentsEssential", { ShowReferringPhysicianLettersWithOtherDocuments: true });
    await all();
    await expect(table.locator("tbody tr", { hasText: "Referring Physician" })).toHaveCount(0);
    await page.goto("/documents/other");
    await expect(table.locator("tbody tr", { hasText: "Referring Physician" })).toHaveCount(1);
    await api.save("DocumentsAlternateDocumentTypeDescription", {
      AltDocDescRP: "Letter to your doctor",
      AltDocDescNotification: "Important notice",
      AltDocDescRecall: "Time for your next exam",
    });
    await page.reload();
    await expect(table.locator("tbody tr", { hasText: "Letter to your doctor" })).toHaveCount(1);
    await all();
    await expect(table.locator("tbody tr", { hasText: "Important notice" })).toHaveCount(1);
    await expect(table.locator("tbody tr", { hasText: "Time for your next exam" })).toHaveCount(1);
    await expect(table.locator("tbody tr", { hasText: "Breast Density Notification" })).toHaveCount(0);

    // RSeq / RDate grouping (the portal's reading, README "Documents"): Jane's result letter the
    // clinical system released twice on one clinic day with RSeq 1 is one entry, the newest; with
    // DisableRSeqRDateGrouping both are, and with Show RSeq with document type their type text
    // carries the RSeq.
    const rows = table.locator("tbody tr");
    const releases = table.locator("tbody tr", { hasText: "Diagnostic Result Letter" });
    const withRSeq = table.locator("tbody tr", { hasText: "Diagnostic Result Letter (1)" });
    await all();
    await expect(releases).toHaveCount(1);
    const grouped = await rows.count();
    await api.save("DocumentsEssential", { DisableRSeqRDateGrouping: true });
    await all();
    await expect(releases).toHaveCount(2);
    await expect(rows).toHaveCount(grouped + 1);
    await expect(badge(page, /All Letters/)).toHaveText(String(grouped + 1));
    await expect(withRSeq).toHaveCount(0);
    await api.save("DocumentsEssential", { DocumentsIsShowRSeqWithDocType: true });
    await all();
    await expect(withRSeq).toHaveCount(2);
    await expect(rows).toHaveCount(grouped + 1);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SCREENSHOTS}/documents-rseq-ungrouped.png`, fullPage: true });
    await api.save("DocumentsEssential", { DisableRSeqRDateGrouping: false });
    await all();
    await expect(releases).toHaveCount(1);
    await expect(withRSeq).toHaveCount(0);
    await expect(rows).toHaveCount(grouped);
    await api.save("DocumentsEssential", { DocumentsIsShowRSeqWithDocType: false });

    // Other Settings: the date format and the button texts.
    await api.save("DocumentsOther", { DocViewDateFormat: "MM/dd/yyyy", DocViewBtnText: "Open", DocAckBtnText: "Confirm receipt" });
    await all();
    const dates = await table.locator("tbody tr td:first-child").allInnerTexts();
    expect(dates.length).toBeGreaterThan(0);
    for (const d of dates) expect(d.trim()).toMatch(/^\d\d\/\d\d\/\d{4}$/);
    await expect(table.getByRole("button", { name: "Open" }).first()).toBeVisible();
    await expect(table.getByRole("button", { name: "View" })).toHaveCount(0);
    await expect(table.getByRole("button", { name: "Confirm receipt" }).first()).toBeVisible();
    await api.save("DocumentsOther", { DocViewDateFormat: "EEEE, MMMM d, y", DocViewBtnText: "View", DocAckBtnText: "Acknowledge" });

    // Acknowledge on view, after AckOnViewDelay seconds: any letter, not only its own flag.
    await api.save("DocumentsEssential", { ACKOnView: true, AckOnViewDelay: 1 });
    await all();
    const row = table.locator("tbody tr", { hasText: "Not Read" }).first();
    const auto = page.waitForResponse((r) => r.url().endsWith("/api/documents/readAndAcknowledge"), { timeout: 10_000 });
    await row.getByRole("button", { name: "View" }).click();
    expect((await auto).status()).toBe(200);
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
  } finally {
    await context.close();
    await api.page.context().close();
    portal.stop();
  }
});
