import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, STAFF_STATE } from "./helpers";

test.use({ storageState: STAFF_STATE });

/** The lists open on today (spec 01 §9); these tests page through every demo appointment. */
const WIDE = "all_f_DateMode=range&all_f_DateFrom=2000-01-01&all_f_DateTo=2099-12-31";
const ALL_WIDE = `/admin/history-portal/all?${WIDE}`;

function list(page: Page) {
  return page.getByRole("table", { name: "All History Surveys List" });
}
function bodyRows(page: Page) {
  return list(page).locator("tbody tr");
}
async function firstPatients(page: Page): Promise<string[]> {
  return list(page).locator("tbody tr td:first-child").allTextContents();
}

test("the History Portal opens on All with the spec's columns, ten rows a page", async ({ page }) => {
  await page.goto("/admin/history-portal");
  await expect(page).toHaveURL(/\/admin\/history-portal\/all$/);
  await page.goto(ALL_WIDE);
  await expect(page.getByRole("heading", { level: 1, name: "History Portal" })).toBeVisible();
  for (const header of ["Patient", "MRN", "DOB", "Location", "Appointment Date / Time", "Status", "Survey"]) {
    await expect(list(page).getByRole("columnheader", { name: header })).toBeVisible();
  }
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(page.getByRole("button", { name: "Page 2" })).toBeVisible();
  // Default sort: first column ascending (spec 01 §2.6).
  await expect(list(page).getByRole("columnheader", { name: /Patient/ })).toHaveAttribute("aria-sort", "ascending");
});

test("paging, sorting and page size live in the address and survive a reload", async ({ page }) => {
  await page.goto(ALL_WIDE);
  await expect(bodyRows(page)).toHaveCount(10);
  const pageOne = await firstPatients(page);

  await page.getByRole("button", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/all_page=2/);
  await expect(page.getByRole("button", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
  await expect.poll(() => firstPatients(page)).not.toEqual(pageOne);

  await list(page).getByRole("button", { name: /Patient/ }).click();
  await expect(page).toHaveURL(/all_dir=desc/);
  await expect(page).not.toHaveURL(/all_page=/); // a new sort starts on page 1
  await expect(list(page).getByRole("columnheader", { name: /Patient/ })).toHaveAttribute("aria-sort", "descending");
  // The header and the address change before the new page arrives: wait for the rows.
  const inDescendingOrder = (names: string[]) => names.join("|") === [...names].sort((a, b) => b.localeCompare(a)).join("|");
  await expect.poll(async () => inDescendingOrder(await firstPatients(page))).toBe(true);

  await page.getByRole("combobox", { name: "Rows per page" }).selectOption("25");
  await expect(page).toHaveURL(/all_size=25/);
  await expect(bodyRows(page)).toHaveCount(25);

  const url = page.url();
  await page.reload();
  expect(page.url()).toBe(url);
  await expect(bodyRows(page)).toHaveCount(25);
  await expect(list(page).getByRole("columnheader", { name: /Patient/ })).toHaveAttribute("aria-sort", "descending");
  await expect(page.getByRole("combobox", { name: "Rows per page" })).toHaveValue("25");

  await page.goBack();
  await expect(page).not.toHaveURL(/all_size=25/);
  await expect(bodyRows(page)).toHaveCount(10);
});

test("search narrows the list by patient name and is kept across a reload", async ({ page }) => {
  await page.goto(ALL_WIDE);
  await expect(bodyRows(page)).toHaveCount(10);
  const someone = (await firstPatients(page))[0].trim();
  const lastName = someone.split(/\s+/).pop()!;

  await page.getByRole("searchbox", { name: "Search" }).fill(lastName);
  await expect(page).toHaveURL(new RegExp(`all_q=${encodeURIComponent(lastName)}`));
  await expect.poll(async () => (await firstPatients(page)).every((name) => name.includes(lastName))).toBe(true);
  const found = await firstPatients(page);
  expect(found.length).toBeGreaterThan(0);

  await page.reload();
  await expect(page.getByRole("searchbox", { name: "Search" })).toHaveValue(lastName);
  await expect.poll(() => firstPatients(page)).toEqual(found);
});

test("a search that matches nobody says so", async ({ page }) => {
  await page.goto(`${ALL_WIDE}&all_q=zzzz-nobody-has-this-name`);
  await expect(list(page)).toContainText("No data available");
  await expect(page.getByText("Showing 0 to 0 of 0 entries")).toBeVisible();
});

test("a server error opens the error dialog with the server's title and an error ID", async ({ page }) => {
  // Only allow-listed columns sort (wasm-core table state): a made-up one in the address gets a 400.
  await page.goto("/admin/history-portal/all?all_sort=NotAColumn");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("Unknown sort column");
  await expect(dialog).toContainText("Please contact the system administrator");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(dialog).toHaveCount(0);
});

test("when the session has ended, the next call leads to the patient login", async ({ page, context }) => {
  await page.goto(ALL_WIDE);
  await expect(bodyRows(page)).toHaveCount(10);
  // The session ends on the server side of things; the CSRF cookie stays, as it would.
  await context.clearCookies({ name: "portal_session" });
  await page.getByRole("button", { name: "Page 2" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});

test("the five tabs: status column and filter only on All and Completed, actions-free lists filter by location", async ({ page }) => {
  for (const [path, name, showsStatus] of [
    ["all", "All History Surveys List", true],
    ["assigned", "Assigned Surveys", false],
    ["progress", "In Progress Surveys", false],
    ["completed", "Completed Surveys", true],
    ["today", "Today's Appointments", false],
  ] as const) {
    await page.goto(`/admin/history-portal/${path}`);
    const table = page.getByRole("table", { name });
    await expect(table).toBeVisible();
    await expect(table.getByRole("columnheader", { name: "Status" })).toHaveCount(showsStatus ? 1 : 0);
    await expect(page.getByRole("combobox", { name: "Status" })).toHaveCount(showsStatus ? 1 : 0);
    await expect(page.getByRole("combobox", { name: "Location" })).toHaveValue("");
    await expect(page.getByRole("combobox", { name: "Location" }).locator("option").first()).toHaveText("All Locations");
  }
});

test("the date picker defaults to today and its mode, dates and filters live in the address", async ({ page }) => {
  await page.goto("/admin/history-portal/all");
  const today = await page.evaluate(() => {
    const d = new Date();
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  });
  await expect(page.getByTestId("appointment-range")).toHaveText(today);
  await expect(page.getByRole("combobox", { name: "Date mode" })).toHaveValue("day");

  await page.getByRole("combobox", { name: "Date mode" }).selectOption("year");
  await expect(page).toHaveURL(/all_f_DateMode=year/);
  await expect(page.getByTestId("appointment-range")).toHaveText(`${today.slice(0, 4)}-01-01 – ${today.slice(0, 4)}-12-31`);

  await page.getByRole("combobox", { name: "Date mode" }).selectOption("range");
  await page.getByLabel("From date").fill("2000-01-01");
  await page.getByLabel("To date").fill("2099-12-31");
  await expect(page).toHaveURL(/all_f_DateTo=2099-12-31/);
  await expect(bodyRows(page)).toHaveCount(10);
  const everything = await page.getByText(/Showing 1 to 10 of \d+ entries/).textContent();

  // Status and location narrow the list; every row shows the chosen status / location.
  await page.getByRole("combobox", { name: "Status" }).selectOption({ label: "Assigned" });
  await expect(page).toHaveURL(/all_f_Status=Assigned/);
  await expect.poll(async () => {
    const statuses = await list(page).locator("tbody tr td:nth-child(6)").allTextContents();
    return statuses.length > 0 && statuses.every((s) => s === "Assigned");
  }).toBe(true);
  const locationSelect = page.getByRole("combobox", { name: "Location" });
  const locationName = (await locationSelect.locator("option").nth(1).textContent())!.trim();
  expect(locationName).not.toContain("_");
  await locationSelect.selectOption({ index: 1 });
  await expect(page).toHaveURL(/all_f_Location=/);
  await expect.poll(async () => {
    const cells = await list(page).locator("tbody tr td:nth-child(4)").allTextContents();
    return cells.every((c) => c === locationName) && !(await page.getByText(everything!).isVisible());
  }).toBe(true);

  const url = page.url();
  await page.reload();
  expect(page.url()).toBe(url);
  await expect(page.getByRole("combobox", { name: "Status" })).toHaveValue("Assigned");
  await expect(page.getByRole("combobox", { name: "Date mode" })).toHaveValue("range");
  await expect(page.getByLabel("To date")).toHaveValue("2099-12-31");
});

test("the details modal: Resend for an open survey, a disabled View with its reason for a finished one without answers", async ({ page }) => {
  await page.goto(`${ALL_WIDE}&all_f_Status=Assigned&all_q=Doe`);
  await expect(bodyRows(page).first()).toContainText("Doe");
  await bodyRows(page).first().click();
  const dialog = page.getByRole("dialog", { name: "History Portal Survey Details" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("MRN");
  await expect(dialog.getByRole("button", { name: "View" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Resend" }).click();
  await expect(page.getByText("Notification was sent successfully")).toBeVisible();
  await expect(dialog.locator("dd").last()).not.toHaveText("N/A");
  await dialog.locator(".modal-footer").getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);

  // Expired without ever being started: finished, no answers.
  await page.goto(`${ALL_WIDE}&all_f_Status=Expired&all_size=25`);
  await expect(bodyRows(page).first()).toContainText("Expired");
  const count = await bodyRows(page).count();
  let found = false;
  for (let i = 0; i < count && !found; i++) {
    await bodyRows(page).nth(i).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Resend" })).toHaveCount(0);
    const view = dialog.getByRole("button", { name: "View" });
    if (await view.isDisabled()) {
      await expect(dialog.locator("[title]")).toHaveAttribute("title", "Patient did not start the survey. There is no information to view");
      found = true;
    } else {
      await expect(view).toBeEnabled();
    }
    await dialog.locator(".modal-footer").getByRole("button", { name: "Close" }).click();
  }
  expect(found).toBe(true);
});

test("Today: arrival styles the rows, Ready For Exam sends and turns into Resend Ready For Exam", async ({ page }) => {
  await page.goto("/admin/history-portal/today?today_size=100");
  const table = page.getByRole("table", { name: "Today's Appointments" });
  await expect(table.getByRole("columnheader", { name: "Actions" })).toBeVisible();
  await expect(table.locator("tbody tr").first()).not.toContainText("Loading");
  expect(await table.locator("tbody tr.patient-arrived, tbody tr.ready-for-exam").count()).toBeGreaterThan(0);
  // Rows whose patient has not arrived never offer Ready For Exam.
  const waiting = table.locator("tbody tr:not(.patient-arrived):not(.ready-for-exam)");
  for (let i = 0; i < (await waiting.count()); i++) {
    await expect(waiting.nth(i).getByRole("button", { name: /Ready For Exam/ })).toBeDisabled();
  }
  const arrived = table.locator("tbody tr.patient-arrived").filter({ has: page.getByRole("button", { name: "Ready For Exam", exact: true, disabled: false }) });
  await expect(arrived.first()).toBeVisible();
  const patient = (await arrived.first().locator("td").first().textContent())!.trim();
  await arrived.first().getByRole("button", { name: "Ready For Exam", exact: true }).click();
  const row = table.locator("tbody tr", { hasText: patient }).filter({ has: page.getByRole("button", { name: "Resend Ready For Exam" }) });
  await expect(row.first()).toHaveClass(/ready-for-exam/);
  await expect(row.first().getByRole("button", { name: "Resend Ready For Exam" })).toBeEnabled();
  // The buttons never open the details modal.
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

test("Today: Start Survey checks that the survey is still open, then opens it in a new tab", async ({ page }) => {
  await page.goto("/admin/history-portal/today?today_size=100");
  const table = page.getByRole("table", { name: "Today's Appointments" });
  await expect(table.locator("tbody tr").first()).not.toContainText("Loading");
  const start = table.getByRole("button", { name: "Start Survey", disabled: false }).first();
  await expect(start).toBeVisible();
  const check = page.waitForResponse((r) => r.url().includes("/api/surveyQueue/isExpired?id="));
  const popup = page.context().waitForEvent("page");
  await start.click();
  expect(await (await check).json()).toEqual({ IsExpired: false, Title: "", Message: "" });
  const survey = await popup;
  await expect(survey).toHaveURL(/\/survey\?startType=HistoryPortal&surveyQueueId=\d+$/);
  await survey.close();
  await expect(page.getByRole("dialog")).toHaveCount(0);
});

// Issue 20: the History Portal on a tablet and a phone: no clipped table, priority columns, a
// sticky first column with a scroll cue, one compact action menu per Today row, a row legend.
for (const [width, height] of [
  [820, 1180],
  [390, 844],
] as const) {
  test(`at ${width} px the Today list has one action menu per row, a legend and no clipped columns`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto("/admin/history-portal/today?today_size=100");
    const table = page.getByRole("table", { name: "Today's Appointments" });
    await expect(table.locator("tbody tr").first()).not.toContainText("Loading");
    const legend = page.getByRole("list", { name: "Row colours" });
    await expect(legend.getByText("Patient arrived")).toBeVisible();
    await expect(legend.getByText("Ready for Exam sent")).toBeVisible();
    const row = table.locator("tbody tr").first();
    // The three buttons wait inside one menu.
    await expect(row.getByRole("button", { name: "Start Survey" })).toBeHidden();
    await row.locator("summary", { hasText: "Actions" }).click();
    await expect(row.getByRole("button", { name: "Start Survey" })).toBeVisible();
    await expect(row.getByRole("button", { name: "View Survey" })).toBeVisible();
    await expect(row.getByRole("button", { name: /Ready For Exam/ })).toBeVisible();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    if (width > 530) {
      // Low-priority columns step aside; the patient column stays put while the rest scrolls.
      await expect(table.getByRole("columnheader", { name: "DOB" })).toBeHidden();
      await expect(table.getByRole("columnheader", { name: "Patient" })).toBeVisible();
      expect(await row.locator("td").first().evaluate((td) => getComputedStyle(td).position)).toBe("sticky");
    }
    // Nothing wider than the page (no clipped content without a way to reach it).
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SCREENSHOTS}/history-portal-today-${width}.png`, fullPage: true });
  });
}
