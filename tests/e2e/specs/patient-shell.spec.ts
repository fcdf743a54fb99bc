import { fileURLToPath } from "node:url";
import { expect, test } from "./fixtures";
import { expectFieldMessage, expectNoAxeViolations, mainMenu, SCREENSHOTS, signIn } from "./helpers";

// Issue 4 part 1 and the letter viewers: the sidebar logo editor, module flags and SSO mode in the
// routes, the unsupported-browser dialog, the trace modal, the pdf.js viewer page and the mobile
// route's ack-on-view.

const PNG = fileURLToPath(new URL("../../api/tests/fixtures/logo.png", import.meta.url));

interface Letter {
  AccessToken: string;
  Type: string;
  SSN: string;
}

test("a program manager edits the logo: width with cancel and save, upload and remove", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await expect(page).toHaveURL(/\/home$/);
  const sidebar = page.locator("#sidebar");
  const mark = sidebar.locator(".logo-mark-box");
  await expect(mark).toHaveCSS("width", "50px");

  await sidebar.getByRole("button", { name: "Edit logo" }).click();
  const width = sidebar.getByLabel("Logo width (px)");
  await expect(width).toHaveValue("50");
  await width.fill("");
  await expect(sidebar.getByText("Logo width is required.")).toBeVisible();
  await expect(sidebar.getByRole("button", { name: "Save width" })).toBeDisabled();
  // wasm-core's message under the field it is about.
  await expectFieldMessage(width, "Logo width is required.");
  await expectNoAxeViolations(page, "#sidebar");
  await width.fill("wide");
  await expect(sidebar.getByText("Logo width must be a number.")).toBeVisible();
  // A valid width previews at once; Cancel restores the saved one.
  await width.fill("90");
  await expect(mark).toHaveCSS("width", "90px");
  await sidebar.getByRole("button", { name: "Cancel" }).click();
  await expect(mark).toHaveCSS("width", "50px");
  await expect(width).toHaveCount(0);

  await sidebar.getByRole("button", { name: "Edit logo" }).click();
  await width.fill("80");
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/settings/setvalue"));
  await sidebar.getByRole("button", { name: "Save width" }).click();
  expect((await saved).status()).toBe(200);
  await expect(width).toHaveCount(0);
  await page.reload();
  await expect(mark).toHaveCSS("width", "80px");

  // Upload: the image shows at the saved width, from an address with its upload time.
  await sidebar.getByRole("button", { name: "Edit logo" }).click();
  const svg = page.waitForResponse((r) => r.url().endsWith("/api/logoSettings/logo"));
  await sidebar.getByLabel("Logo image file").setInputFiles({
    name: "logo.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
  });
  expect((await svg).status()).toBe(400);
  await expect(sidebar.getByRole("alert").filter({ hasText: "The logo must be a PNG, JPEG or GIF image." })).toBeVisible();
  const uploaded = page.waitForResponse((r) => r.url().endsWith("/api/logoSettings/logo") && r.status() === 200);
  await sidebar.getByLabel("Logo image file").setInputFiles(PNG);
  await uploaded;
  const image = sidebar.getByRole("img", { name: "Clinic logo" });
  await expect(image).toHaveAttribute("src", /^\/api\/logoSettings\/image\/logo\?t=\d+$/);
  await expect(image).toHaveCSS("width", "80px");
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
  await page.screenshot({ path: `${SCREENSHOTS}/logo-edit.png`, clip: { x: 0, y: 0, width: 420, height: 360 } });

  // Remove: the portal's mark returns; the width goes back to the default for the other specs.
  await sidebar.getByRole("button", { name: "Remove logo" }).click();
  await expect(image).toHaveCount(0);
  await expect(mark).toBeVisible();
  await width.fill("50");
  await sidebar.getByRole("button", { name: "Save width" }).click();
  await expect(mark).toHaveCSS("width", "50px");
});

test("patients and front desk cannot edit the logo", async ({ page }) => {
  await signIn(page, "patient", "jane.doe");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.locator("#sidebar .sidebar-logo")).toBeVisible();
  await expect(page.getByRole("button", { name: "Edit logo" })).toHaveCount(0);
});

test("a module that is off hides its routes and SSO mode sends Home to documents", async ({ page }) => {
  await page.route("**/api/accountApi/apppermissionsJson", (route) =>
    route.fulfill({ json: { Module_Documents: false, Module_Appointments: true, Module_MedicalHistory: true } }),
  );
  await signIn(page, "patient", "jane.doe");
  await expect(page).toHaveURL(/\/home$/);
  await expect(mainMenu(page).getByRole("link", { name: "Documents" })).toHaveCount(0);
  await page.goto("/documents/all");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/Documents/ViewPdf/some-token");
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Home" })).toBeVisible();
  // Without the module, home does not ask for unread letters.
  await expect(page.getByRole("heading", { name: "Pending actions" })).toBeVisible();
  await expect(page.getByText(/unread letter/)).toHaveCount(0);

  await page.unroute("**/api/accountApi/apppermissionsJson");
  await page.route("**/api/accountApi/permissionsJson", async (route) => {
    const real = await route.fetch();
    route.fulfill({ response: real, json: { ...(await real.json()), IsSsoMode: true } });
  });
  await page.goto("/home");
  await expect(page).toHaveURL(/\/documents\/(unread|all)$/);
  await expect(mainMenu(page).getByRole("link", { name: "Home" })).toHaveCount(0);
});

test("a browser without WebAssembly gets the unsupported-browser dialog", async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(window, "WebAssembly", { value: undefined, configurable: true });
  });
  await page.goto("/patient/login");
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText("Your browser is not compatible with our website.");
  await expect(dialog).toContainText("WebAssembly");
  await expect(dialog.getByRole("link", { name: "Mozilla Firefox" })).toBeVisible();
  await expect(page.getByLabel("Username or Email")).toHaveCount(0);
});

test("the program manager's trace is its own modal with Key, Details and FieldUpdated", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/documents/all");
  await page.getByLabel("Patient MRN").fill("100001");
  const loaded = page.waitForResponse((r) => r.url().endsWith("/api/documents/loadDocuments"));
  await page.getByRole("button", { name: "Search" }).click();
  await loaded;
  const row = page.getByRole("table", { name: "Letters" }).locator("tbody tr", { hasText: "Breast Density Notification" });
  // The manager opens the letter (an audited view) ...
  const pdf = page.waitForResponse((r) => r.url().includes("/api/documents/letterPdf"));
  await row.getByRole("button", { name: "View" }).click();
  expect((await pdf).status()).toBe(200);
  const viewer = page.getByRole("dialog");
  await expect(viewer.locator("iframe")).toBeVisible();
  await expect(viewer.getByText("Trace")).toHaveCount(0);
  await viewer.getByRole("button", { name: "Close" }).first().click();
  // ... and the trace modal lists that view.
  await row.getByRole("button", { name: "Trace" }).click();
  const trace = page.getByRole("dialog", { name: /^Trace: / });
  const text = trace.getByLabel("Trace entries");
  await expect(text).toContainText("Key: LetterViewed");
  await expect(text).toContainText(/Details: .+ by manager/);
  await expect(text).toContainText("FieldUpdated:");
  await trace.getByRole("button", { name: "Close" }).last().click();
  await expect(trace).toHaveCount(0);
});

test("the manager's MRN search stays put while /documents picks its tab: typing and focus are kept", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await expect(page).toHaveURL(/\/home$/);
  // The documents settings are held back, so the search is on screen before the tab is decided.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/documents/documentsSettings*", async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/documents");
  const mrn = page.getByLabel("Patient MRN");
  await mrn.fill("1000");
  const input = await mrn.elementHandle();
  release();
  await expect(page).toHaveURL(/\/documents\/unread$/);
  // The same input, still focused and holding what was typed, takes the rest of the MRN.
  expect(await input!.evaluate((el) => el.isConnected && el === document.activeElement)).toBe(true);
  await page.keyboard.type("01");
  await expect(mrn).toHaveValue("100001");
  const loaded = page.waitForResponse((r) => r.url().endsWith("/api/documents/loadDocuments") && r.request().postData()?.includes("100001") === true);
  await page.keyboard.press("Enter");
  const answer = await loaded;
  expect(answer.status()).toBe(200);
  // Jane's letters (which of them are unread depends on the specs beside this one).
  const { list } = (await answer.json()) as { list: Letter[] };
  expect(list.length).toBeGreaterThan(0);
  expect(list.every((l) => l.SSN === "100001")).toBe(true);
});

test("the pdf.js viewer page draws the letter with its text", async ({ page }) => {
  // The program manager opens Jane's letter: staff views do not mark it read for her.
  await signIn(page, "staff", "manager");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/documents/all");
  await page.getByLabel("Patient MRN").fill("100001");
  const loaded = page.waitForResponse((r) => r.url().endsWith("/api/documents/loadDocuments"));
  await page.getByRole("button", { name: "Search" }).click();
  const body = (await (await loaded).json()) as { list: Letter[] };
  const letter = body.list.find((l) => l.Type === "Breast Density Notification")!;
  const file = `/api/documents/letterPdf?accessToken=${encodeURIComponent(letter.AccessToken)}`;
  await page.goto(`/Scripts/pdfjs/web/viewer.html?file=${encodeURIComponent(file)}`);
  const pageOne = page.getByRole("region", { name: "Page 1" });
  await expect(pageOne.locator("canvas")).toBeVisible();
  await expect(pageOne.locator(".textLayer")).toContainText("Jane Doe");
  await expect(pageOne.locator(".textLayer")).toContainText("Breast Density Notification");
  await expect(page.locator("#pdfv-pages")).toHaveText(/^\d+ pages?$/);
  // The canvas is really drawn: many pixels are not white.
  const inked = await pageOne.locator("canvas").evaluate((c: HTMLCanvasElement) => {
    const data = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i] < 200 || data[i + 1] < 200 || data[i + 2] < 200) n += 1;
    return n;
  });
  expect(inked).toBeGreaterThan(2000);
  await page.screenshot({ path: `${SCREENSHOTS}/pdfjs-viewer.png` });

  // Another site's file is not opened.
  await page.goto(`/Scripts/pdfjs/web/viewer.html?file=${encodeURIComponent("https://example.com/x.pdf")}`);
  await expect(page.getByRole("status")).toHaveText("No document to show.");
});

test("in a 400 px viewport the letter opens in the pdf.js page and is acknowledged on view", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 800 });
  await signIn(page, "patient", "maria.garcia");
  await expect(page).toHaveURL(/\/home$/);
  await page.goto("/documents/all");
  // Below 420 px the letters are the compact list (issue 20), one row per letter with its View.
  const row = page.getByRole("list", { name: "Letters" }).getByRole("listitem").filter({ hasText: "Follow-up Reminder" });
  const ack = page.waitForResponse((r) => r.url().endsWith("/api/documents/readAndAcknowledge"), { timeout: 20_000 });
  await row.getByRole("button", { name: "View Follow-up Reminder" }).click();
  await expect(page).toHaveURL(/\/Documents\/ViewPdf\/[^/]+$/);
  const frame = page.locator("iframe");
  await expect(frame).toHaveAttribute("src", /^\/Scripts\/pdfjs\/web\/viewer\.html\?file=%2Fapi%2Fdocuments%2FletterPdf/);
  await expect(page.frameLocator("iframe").locator(".textLayer").first()).toContainText("Follow-up Reminder");
  expect((await ack).status()).toBe(200);
  await expect(page.getByRole("status").filter({ hasText: /^Acknowledged: On / })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}/documents-mobile-viewer.png` });
});
