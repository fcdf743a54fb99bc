import { expect, test } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Survey Packages Management (spec 04 "Survey packages"): a program manager uploads a survey
// XML through the page, sees it listed, sees an invalid one listed with its error in red, and
// deletes with the spec's confirmation.
const run = Date.now().toString(36);
const goodId = `E2E-${run}`;
const badId = `E2E-BAD-${run}`;

const good = `<?xml version="1.0" encoding="UTF-8"?>
<survey id="${goodId}">
  <name lang="en">Browser Upload</name>
  <page id="p1">
    <title>Page</title>
    <question id="a" type="yesno" required="true" storage="screening.new_problem"><text>New problem?</text></question>
    <question id="b" type="text" storage="lab.value"><text>Lab value</text></question>
  </page>
</survey>
`;
const bad = `<survey id="${badId}">
<name>Broken</name>
<page id="p"><title>T</title>
<question id="q" type="colour" storage="x.y"><text>Q</text></question>
</page></survey>
`;

test("upload a survey, see it and an invalid one listed, delete with confirmation", async ({ page }) => {
  await signIn(page, "staff", "manager");
  // The survey settings area opens on package (spec 04 §2), reached from the menu.
  await page.goto("/admin/survey-settings");
  await expect(page).toHaveURL(/\/admin\/survey-settings\/package$/);
  await expect(page.getByRole("heading", { level: 1, name: "Survey Packages Management" })).toBeVisible();
  const table = page.getByRole("table", { name: "Surveys" });
  await expect(table.getByRole("row", { name: /BIH-001/ })).toBeVisible();

  const form = page.getByRole("form", { name: "Upload Survey XML" });
  // The optional name and the overwrite option appear only once a file is chosen.
  await expect(form.getByLabel("Name (optional)")).toHaveCount(0);
  await form.getByLabel("Survey file (XML)").setInputFiles({ name: "browser.xml", mimeType: "text/xml", buffer: Buffer.from(good) });
  // The longest name kept is wasm-core's (surveyNameMaxChars).
  await expect(form.getByLabel("Name (optional)")).toHaveAttribute("maxlength", "200");
  await expectNoAxeViolations(page, "main");
  await form.getByLabel("Name (optional)").fill("Browser Upload Survey");
  await expect(form.getByLabel("Overwrite")).not.toBeChecked();
  await form.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Survey Uploaded")).toBeVisible();
  const row = table.getByRole("row", { name: new RegExp(goodId) });
  await expect(row).toContainText("Browser Upload Survey");
  await expect(row).toContainText("lab.value");
  await expect(row.getByRole("cell").nth(4)).toHaveText("2");

  // The same id again without Overwrite: refused with the server's message.
  await form.getByLabel("Survey file (XML)").setInputFiles({ name: "browser.xml", mimeType: "text/xml", buffer: Buffer.from(good) });
  await form.getByRole("button", { name: "Upload" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText(`Survey '${goodId}' already exists. Choose Overwrite to replace it.`);
  await dialog.getByRole("button", { name: "OK" }).click();

  // An invalid file is listed with its error (with its line) in red in the Questions column.
  await form.getByLabel("Survey file (XML)").setInputFiles({ name: "broken.xml", mimeType: "text/xml", buffer: Buffer.from(bad) });
  await form.getByRole("button", { name: "Upload" }).click();
  const badRow = table.getByRole("row", { name: new RegExp(badId) });
  const error = badRow.getByRole("cell").nth(4).locator(".survey-error");
  await expect(error).toHaveText("Line 4: 'q' has unknown type 'colour'");
  await expect(error).toHaveCSS("color", "rgb(180, 35, 53)");
  await expect(page.getByRole("region", { name: "Upload results" })).toContainText("broken.xml");

  await page.screenshot({ path: `${SCREENSHOTS}/survey-packages.png`, fullPage: true });

  // Delete asks first (title Delete Survey XML); Cancel keeps the survey.
  await row.getByRole("button", { name: `Delete ${goodId}` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Survey XML" });
  await expect(confirm).toContainText(`Are you sure you want to delete '${goodId}'?`);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: `Delete ${goodId}` }).click();
  await page.getByRole("dialog", { name: "Delete Survey XML" }).getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
  await badRow.getByRole("button", { name: `Delete ${badId}` }).click();
  await page.getByRole("dialog", { name: "Delete Survey XML" }).getByRole("button", { name: "Delete" }).click();
  await expect(badRow).toHaveCount(0);

  // An assigned survey cannot be deleted: the server's reason is shown.
  await table.getByRole("button", { name: "Delete PES-010" }).click();
  await page.getByRole("dialog", { name: "Delete Survey XML" }).getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("dialog")).toContainText("Survey 'PES-010' cannot be deleted: it is assigned to patients");
});
