import type { Locator, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Techpad settings (issue 18; spec 04 §2 "Techpad settings area", §3-§5, §7): every page loads its
// group from /api/techpadSettings/{category}, validates with wasm-core, saves and reloads. The pages
// save groups of the demo clinic that the others read (comments -> canned notes), so they run in
// order.
test.describe.configure({ mode: "serial", timeout: 120_000 });

// A reload right after a save may still meet the unsaved-changes guard for a moment: accept it.
test.beforeEach(({ page }) => {
  page.on("dialog", (dialog) => void dialog.accept());
});

const SAVED = "Configuration has been successfully saved!";
const INVALID = "Form is invalid";
const BASE = "/admin/techpad-settings";

async function open(page: Page, path: string, form: string): Promise<Locator> {
  await signIn(page, "staff", "manager");
  await page.goto(`${BASE}/${path}`);
  const f = page.getByRole("form", { name: form });
  await expect(f).toBeVisible({ timeout: 30_000 });
  return f;
}

/** Saves the form and waits for the page to read its group again (spec 04 §4), so the form holds
 * no unsaved changes (which would hold a reload back). */
async function save(page: Page, form: Locator) {
  const reread = page.waitForResponse((r) => r.url().includes("/api/techpadSettings/") && r.request().method() === "GET");
  await form.getByRole("button", { name: "Save", exact: true }).click();
  // Two saves in a row may show two toasts at once: the newest is this save's.
  await expect(page.getByText(SAVED).last()).toBeVisible();
  await reread;
  await expect(form.getByRole("button", { name: "Save", exact: true })).toBeEnabled();
}

test("the area opens on General: spec 04 §5 minimums, the chat url row, the family tree toggle, barcode and tab choices", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto(BASE);
  await expect(page).toHaveURL(/\/admin\/techpad-settings\/general$/);
  const tabs = page.getByRole("navigation", { name: "Techpad Settings" });
  for (const tab of ["General", "Maglink Events", "Exam Actions", "Comments", "Diagram", "Worklist Sorting", "Dynamic Labels", "Status and Tags", "Resources", "PDF Forms", "Canned Notes"]) {
    await expect(tabs.getByRole("link", { name: tab, exact: true })).toBeVisible();
  }
  const form = page.getByRole("form", { name: "Techpad General Settings" });
  await expect(form.getByLabel("Default worklist tab")).toHaveValue("3");
  await expect(form.getByLabel("Default worklist tab").locator("option:checked")).toHaveText("Demographic");
  await expect(form.getByLabel("Barcode type").locator("option")).toHaveText(["CODE128", "CODE128A", "CODE128B", "CODE39", "CODE39Extended"]);
  await expect(form.getByLabel("Status allowed from completed")).toHaveValue("ExamWaiting");
  await expect(form.getByRole("radio", { name: "Days when over 24 hours" })).toBeVisible();

  // spec 04 §4: the family tree tab toggle follows FamilyTree.
  const tyrer = form.getByLabel("Show Tyrer-Cuzick tab");
  await expect(tyrer).toBeDisabled();
  await form.getByLabel("Family tree", { exact: true }).check();
  await expect(tyrer).toBeEnabled();

  await form.getByLabel("Worklist prioritizing accuracy").fill("0");
  await form.getByLabel("History load retries").fill("-1");
  await form.getByLabel("Session warn timeout (minutes)").fill("-1");
  await form.getByLabel("Show Chat menu item").check();
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(form.getByText("Must be between 1 and 1000")).toBeVisible();
  await expect(form.getByText("Must be between 0 and 100")).toBeVisible();
  await expect(form.getByText("Must be between 0 and 1440")).toBeVisible();
  await expect(form.getByText("Chat service url is required when the chat menu is on")).toBeVisible();
  await expect(form.getByLabel("Chat service url")).toHaveAttribute("aria-invalid", "true");
  await expectNoAxeViolations(page);

  await form.getByLabel("Worklist prioritizing accuracy").fill("2");
  await form.getByLabel("History load retries").fill("0");
  await form.getByLabel("Session warn timeout (minutes)").fill("0");
  await form.getByLabel("Chat service url").fill("https://chat.example.org");
  await form.getByLabel("Barcode type").selectOption({ label: "CODE39" });
  await form.getByLabel("Default worklist tab").selectOption({ label: "Risk" });
  await tyrer.check();
  await save(page, form);
  await page.reload();
  await expect(form.getByLabel("Barcode type")).toHaveValue("10");
  await expect(form.getByLabel("Default worklist tab")).toHaveValue("11");
  await expect(form.getByLabel("Show Tyrer-Cuzick tab")).toBeChecked();
  await expect(form.getByLabel("Chat service url")).toHaveValue("https://chat.example.org");
});

test("Maglink events: Exam Start, Exam End and Exam Complete; path and type follow their checkbox", async ({ page }) => {
  const form = await open(page, "maglink-events", "Maglink Events");
  for (const event of ["Exam Start", "Exam End", "Exam Complete"]) {
    const group = form.getByRole("group", { name: event });
    await expect(group.getByLabel("Interface queue path")).toBeDisabled();
    await expect(group.getByLabel("Message type")).toBeDisabled();
  }
  const end = form.getByRole("group", { name: "Exam End" });
  await end.getByLabel("Enable Exam End event").check();
  await expect(end.getByLabel("Interface queue path")).toBeEnabled();
  await end.getByLabel("Interface queue path").fill("\\\\mq\\exam-end");
  await end.getByLabel("Message type").fill("ORU");
  await expectNoAxeViolations(page);
  await save(page, form);
  await page.reload();
  await expect(form.getByRole("group", { name: "Exam End" }).getByLabel("Message type")).toHaveValue("ORU");
  await expect(form.getByRole("group", { name: "Exam Start" }).getByLabel("Message type")).toBeDisabled();
});

test("Exam actions: per event an enable checkbox and the actions checklist, stored joined with ';'", async ({ page }) => {
  const form = await open(page, "exam-actions", "Exam Actions");
  const complete = form.getByRole("group", { name: "Exam Complete", exact: true });
  await complete.getByLabel("Call actions when exam complete").check();
  await complete.getByRole("checkbox", { name: /Mark the study as completed/ }).check();
  await complete.getByRole("checkbox", { name: /Send the event's interface queue/ }).check();
  await expectNoAxeViolations(page);
  await save(page, form);
  const stored = await (await page.request.get("/api/techpadSettings/ExamActions")).json();
  expect(stored.Settings.MVApiActionWhenExamComplete).toBe("MagView.Actions.MarkStudyCompleted;MagView.Actions.SendInterfaceQueueMessage");
  await page.reload();
  await expect(form.getByRole("group", { name: "Exam Complete", exact: true }).getByRole("checkbox", { name: /Mark the study as completed/ })).toBeChecked();
  await expect(form.getByRole("group", { name: "Exam Start", exact: true }).getByRole("checkbox", { name: /Mark the study as completed/ })).not.toBeChecked();
});

test("Comments settings: Add a row (placeholder 'New comment'), a table and field from the storage lookup, readonly, remove", async ({ page }) => {
  const form = await open(page, "comments-settings", "Comments Settings");
  await form.getByRole("button", { name: "Add" }).click();
  const row = form.getByRole("group", { name: "Comment 1" });
  await expect(row.getByLabel("Title")).toHaveAttribute("placeholder", "New comment");
  await row.getByLabel("Title").fill("Technologist notes");
  await row.getByLabel("Table").selectOption("studies");
  await row.getByLabel("Field").selectOption({ label: "Description (description)" });
  await row.getByLabel("Readonly").check();
  await form.getByRole("button", { name: "Add" }).click();
  await form.getByRole("group", { name: "Comment 2" }).getByLabel("Title").fill("Remove me");
  await form.getByRole("group", { name: "Comment 2" }).getByRole("button", { name: "Remove" }).click();
  await expect(form.getByRole("group", { name: "Comment 2" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await save(page, form);
  await page.reload();
  const saved = form.getByRole("group", { name: "Comment 1" });
  await expect(saved.getByLabel("Title")).toHaveValue("Technologist notes");
  await expect(saved.getByLabel("Field")).toHaveValue("Description");
  await expect(saved.getByLabel("Readonly")).toBeChecked();
});

test("Diagram settings: nine icons, Star shown as 'Pain/Lump' and disabled, label and carry forward flags", async ({ page }) => {
  const form = await open(page, "diagram-settings", "Diagram Settings");
  const legends = form.locator("fieldset.tp-row > legend");
  await expect(legends).toHaveText(["Scar", "ReductionScar", "Mole", "Lump", "Pain", "Mastectomy", "Pain/Lump", "Square", "Label"]);
  const star = form.getByRole("group", { name: "Pain/Lump" });
  await expect(star.getByLabel("Enabled")).not.toBeChecked();
  await expect(form.getByRole("group", { name: "Mole" }).getByLabel("Enabled")).toBeChecked();
  await form.getByRole("group", { name: "Mole" }).getByLabel("Label").fill("Naevus");
  await form.getByRole("group", { name: "Mole" }).getByLabel("Excluded from carry forward").check();
  await expectNoAxeViolations(page);
  await save(page, form);
  await page.reload();
  await expect(form.getByRole("group", { name: "Mole" }).getByLabel("Label")).toHaveValue("Naevus");
  await expect(form.getByRole("group", { name: "Mole" }).getByLabel("Excluded from carry forward")).toBeChecked();
});

async function groupOrder(form: Locator): Promise<string[]> {
  return form.locator(".tp-sort-group:not(.tp-fixed) > .tp-sort-head .tp-sort-title").allTextContents();
}

test("Worklist sorting: keyboard-only reorder of groups and values, fixed Other and Update Date, Reset Sorting Settings", async ({ page }) => {
  const form = await open(page, "worklist-sorting", "Worklist Sorting");
  expect(await groupOrder(form)).toEqual(["Status", "Priority", "ExamType"]);
  await expect(form.getByText("Update Date", { exact: true })).toBeVisible();
  await expect(form.getByRole("list", { name: "Status values" }).getByText("Other", { exact: true })).toBeVisible();

  // Keyboard only: focus the button and press Enter / Space; no mouse.
  await form.getByRole("button", { name: "Move ExamType up" }).focus();
  await page.keyboard.press("Enter");
  expect(await groupOrder(form)).toEqual(["Status", "ExamType", "Priority"]);
  await form.getByRole("button", { name: "Move Routine up" }).focus();
  await page.keyboard.press("Space");
  await expect(form.getByRole("list", { name: "Priority values" }).locator(".tp-sort-name")).toHaveText(["STAT", "Routine", "ASAP"]);
  // dnd-kit's own keyboard sensor: pick up the Status handle, move it down one, drop.
  await form.getByRole("button", { name: "Drag Status" }).focus();
  await page.keyboard.press("Space");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Space");
  await expect.poll(() => groupOrder(form)).toEqual(["ExamType", "Status", "Priority"]);
  await form.getByRole("checkbox", { name: "Enabled ExamType" }).check();
  await expectNoAxeViolations(page);
  await save(page, form);
  await page.reload();
  await expect.poll(() => groupOrder(form)).toEqual(["ExamType", "Status", "Priority"]);
  await expect(form.getByRole("checkbox", { name: "Enabled ExamType" })).toBeChecked();
  await expect(form.getByRole("list", { name: "Priority values" }).locator(".tp-sort-name")).toHaveText(["STAT", "Routine", "ASAP"]);

  await form.getByRole("button", { name: "Reset Sorting Settings" }).click();
  await expect.poll(() => groupOrder(form)).toEqual(["Status", "Priority", "ExamType"]);
  await expect(form.getByRole("checkbox", { name: "Enabled ExamType" })).not.toBeChecked();
});

test("Dynamic labels: perform-exam aliases with add/remove and the note; exam tab aliases; exam dynamic labels split at capitals", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto(`${BASE}/dynamic-labels`);
  await expect(page).toHaveURL(/dynamic-labels\/perform-exam-button-aliases$/);
  const aliases = page.getByRole("form", { name: "Perform Exam Button Aliases" });
  await expect(aliases.getByText("Labels must be unique.")).toBeVisible();
  await aliases.getByRole("button", { name: "Add" }).click();
  await aliases.getByRole("group", { name: "Alias 1" }).getByLabel("Label").fill("Start Mammo");
  await aliases.getByRole("group", { name: "Alias 1" }).getByLabel("Value").fill("MAMMO");
  await expectNoAxeViolations(page);
  await save(page, aliases);

  await page.getByRole("navigation", { name: "Dynamic Labels" }).getByRole("link", { name: "Exam Tab Aliases" }).click();
  const tabs = page.getByRole("form", { name: "Exam Tab Aliases" });
  await expect(tabs.getByRole("rowheader")).toHaveText(["Exam", "Demographic", "History", "Diagram", "Comments", "Documents", "FollowUps", "Risk"]);
  await tabs.getByLabel("Alias of Demographic").fill("Patient");
  await expectNoAxeViolations(page);
  await save(page, tabs);

  await page.getByRole("navigation", { name: "Dynamic Labels" }).getByRole("link", { name: "Exam Dynamic Labels" }).click();
  const labels = page.getByRole("form", { name: "Exam Dynamic Labels" });
  await expect(labels.getByRole("rowheader", { name: "Mark As Completed" })).toBeVisible();
  await labels.getByLabel("Alias of Mark As Completed").fill("Done");
  await expectNoAxeViolations(page);
  await save(page, labels);
  await page.reload();
  await expect(labels.getByLabel("Alias of Mark As Completed")).toHaveValue("Done");
});

test("Status and tags: status aliases by default, tags with four colours and a label/value list", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await page.goto(`${BASE}/status-and-tags`);
  await expect(page).toHaveURL(/status-and-tags\/status-aliases$/);
  const statuses = page.getByRole("form", { name: "Status Aliases" });
  await statuses.getByLabel("Label of ExamWaiting").fill("Waiting");
  await expectNoAxeViolations(page);
  await save(page, statuses);

  await page.getByRole("navigation", { name: "Status and Tags" }).getByRole("link", { name: "Tags" }).click();
  const tags = page.getByRole("form", { name: "Tags" });
  await tags.getByLabel("Tag background colour (dark mode)").fill("blue");
  await tags.getByRole("button", { name: "Add" }).click();
  await tags.getByRole("group", { name: "Tag 1" }).getByLabel("Label").fill("VIP");
  await tags.getByRole("group", { name: "Tag 1" }).getByLabel("Value").fill("vip");
  await tags.getByRole("button", { name: "Save", exact: true }).click();
  await expect(tags.getByText("Must be a color such as #1f6feb")).toBeVisible();
  await tags.getByLabel("Tag background colour (dark mode)").fill("#1f6feb");
  await expectNoAxeViolations(page);
  await save(page, tags);
});

test("Resources: a new resource starts with every status allowed, not single-use, an empty label", async ({ page }) => {
  const form = await open(page, "resources", "Resources");
  await form.getByRole("button", { name: "Add" }).click();
  const row = form.getByRole("group", { name: "Resource 1" });
  await expect(row.getByLabel("Label")).toHaveValue("");
  await expect(row.getByLabel("Single use only")).not.toBeChecked();
  const statuses = row.getByRole("group", { name: "Visible for statuses" }).getByRole("checkbox");
  await expect(statuses).toHaveCount(5);
  for (const box of await statuses.all()) await expect(box).toBeChecked();
  await row.getByLabel("Label").fill("Ultrasound room");
  await row.getByRole("checkbox", { name: "ExamCompleted" }).uncheck();
  await expectNoAxeViolations(page);
  await save(page, form);
  await page.reload();
  await expect(form.getByRole("group", { name: "Resource 1" }).getByRole("checkbox", { name: "ExamCompleted" })).not.toBeChecked();
});

test("Canned Notes Management: name and value required, at most 8 per category (limit error, nothing saved)", async ({ page }) => {
  const form = await open(page, "canned-notes", "Canned Notes Management");
  await expect(page.getByRole("heading", { name: "Canned Notes Management" })).toBeVisible();
  await form.getByRole("button", { name: "Add" }).click();
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText(INVALID)).toBeVisible();
  await expect(form.getByText("Name is required")).toBeVisible();
  await expect(form.getByText("Value is required")).toBeVisible();
  for (let i = 1; i <= 9; i++) {
    if (i > 1) await form.getByRole("button", { name: "Add" }).click();
    const row = form.getByRole("group", { name: `Note ${i}` });
    await row.getByLabel("Category").selectOption({ label: "Technologist notes" });
    await row.getByLabel("Name").fill(`Note ${i}`);
    await row.getByLabel("Value").fill(`Text ${i}`);
  }
  await form.getByRole("button", { name: "Save", exact: true }).click();
  await expect(form.getByRole("alert").filter({ hasText: "At most 8 notes can share a category" })).toBeVisible();
  await expectNoAxeViolations(page);
  const stored = await (await page.request.get("/api/techpadSettings/CannedNotes")).json();
  expect(stored.Settings.CannedNotes).toEqual([]);
  await form.getByRole("group", { name: "Note 9" }).getByRole("button", { name: "Remove" }).click();
  await save(page, form);
  await page.reload();
  await expect(form.locator("fieldset.tp-row")).toHaveCount(8);
});

test("screenshots of every techpad settings page at 1280, 820 and 390 px", async ({ page }) => {
  await signIn(page, "staff", "manager");
  const pages = [
    ["general", "Techpad General Settings"],
    ["maglink-events", "Maglink Events"],
    ["exam-actions", "Exam Actions"],
    ["comments-settings", "Comments Settings"],
    ["diagram-settings", "Diagram Settings"],
    ["worklist-sorting", "Worklist Sorting"],
    ["dynamic-labels/perform-exam-button-aliases", "Perform Exam Button Aliases"],
    ["dynamic-labels/exam-tab-aliases", "Exam Tab Aliases"],
    ["dynamic-labels/exam-dynamic-labels", "Exam Dynamic Labels"],
    ["status-and-tags/status-aliases", "Status Aliases"],
    ["status-and-tags/tags", "Tags"],
    ["resources", "Resources"],
    ["canned-notes", "Canned Notes Management"],
  ];
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [path, form] of pages) {
      await page.goto(`${BASE}/${path}`);
      await expect(page.getByRole("form", { name: form })).toBeVisible({ timeout: 30_000 });
      await page.screenshot({ path: `${SCREENSHOTS}/techpad-${path.replace("/", "-")}-${width}.png`, fullPage: true });
    }
  }
  await expectNoAxeViolations(page);
});
