import { expect, test } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Issue 17 (spec 04 "Survey packages" additions): the schema sync refresh control, libraries
// behind MissingLibs with the spec's delete confirmation, the report template upload form with
// its defaults and line-numbered refusals, and the lexicon export in a new window.
const run = Date.now().toString(36);
const libId = `common-${run}`;
const surveyId = `E2E-LIB-${run}`;
const survey = `<survey id="${surveyId}"><name>Library user</name><page id="p"><title>T</title>
<question id="side" type="single" storage="history.symptom_side" library="${libId}" list="sides"><text>Which side?</text></question>
</page></survey>
`;
const library = `<library id="${libId}">
<list id="sides">
<option value="left"><text>Left</text><text lang="es">Izquierdo</text></option>
<option value="right"><text>Right</text></option>
</list>
</library>
`;
const goodTemplate = "survey: BIH-001\ntitle: Intake for <PATIENT>\nsection: Body\nquestions: weight_lb, height_in\n";
const badTemplate = "survey: BIH-001\nsection: Body\nquestions: weight_lb, nope\n";
const SHOTS = process.env.SHOTS_DIR;

test("schema sync, libraries, report templates and the lexicon on the packages page", async ({ page, context }) => {
  // A long walk through four panels (and axe over all of them) on a shared, busy machine.
  test.setTimeout(180_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/package");
  await expect(page.getByRole("heading", { level: 1, name: "Survey Packages Management" })).toBeVisible();

  // Schema sync: the refresh control shows the last sync time as 'MM/DD/YYYY, hh:mm:ss A'.
  const last = page.getByTestId("schema-last-sync");
  await expect(last).not.toHaveText("…");
  await page.getByRole("button", { name: "Refresh" }).click();
  await expect(last).toHaveText(/^\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} (AM|PM)$/);

  // A survey naming a library that is not uploaded lists it in MissingLibs.
  const xmlForm = page.getByRole("form", { name: "Upload Survey XML" });
  await xmlForm.getByLabel("Survey file (XML)").setInputFiles({ name: "lib-user.xml", mimeType: "text/xml", buffer: Buffer.from(survey) });
  await xmlForm.getByRole("button", { name: "Upload" }).click();
  await expect(page.getByText("Survey Uploaded")).toBeVisible();
  const surveys = page.getByRole("table", { name: "Surveys" });
  const row = surveys.getByRole("row", { name: new RegExp(surveyId) });
  await expect(row.getByRole("cell").nth(2)).toHaveText(libId);

  // Uploading the library clears it; the library is listed with its lists and users.
  const libForm = page.getByRole("form", { name: "Upload Library" });
  await libForm.getByLabel("Library file (XML)").setInputFiles({ name: "common.xml", mimeType: "text/xml", buffer: Buffer.from(library) });
  // spec 04: the upload is a multipart form, the file as its part.
  const libPost = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/admin/UploadLibraryDll"));
  await libForm.getByRole("button", { name: "Upload Library" }).click();
  const libRequest = await libPost;
  expect(await libRequest.headerValue("content-type")).toMatch(/^multipart\/form-data; boundary=/);
  // (Chromium does not hand Playwright a body with a file in it: no query means the parts carried it.)
  expect(new URL(libRequest.url()).search).toBe("");
  const libs = page.getByRole("table", { name: "Libraries" });
  const libRow = libs.getByRole("row", { name: new RegExp(libId) });
  await expect(libRow).toContainText("sides");
  await expect(libRow).toContainText(surveyId);
  await expect(row.getByRole("cell").nth(2)).toHaveText("");

  // Delete asks first with the spec's text (title Delete Library); Cancel keeps it.
  await libRow.getByRole("button", { name: `Delete ${libId}.xml` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete Library" });
  await expect(confirm).toContainText(`Are you sure you want to delete '${libId}.xml'?`);
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(libRow).toBeVisible();

  // Report templates: name and options appear once a file is chosen, with the spec's defaults.
  const reportForm = page.getByRole("form", { name: "Upload Report Template" });
  await expect(reportForm.getByLabel("Type")).toHaveCount(0);
  await reportForm.getByLabel("Template file").setInputFiles({ name: "bad.txt", mimeType: "text/plain", buffer: Buffer.from(badTemplate) });
  await expect(reportForm.getByLabel("Type")).toHaveValue("CustomSummary");
  await expect(reportForm.getByLabel("Result file name pattern")).toHaveValue("Summary_<SSN>_<DATE>_<GUID>");
  await expect(reportForm.getByLabel("Overwrite")).not.toBeChecked();
  await expect(reportForm.getByLabel("Include signature")).not.toBeChecked();
  await expectNoAxeViolations(page, "main");
  if (SHOTS) {
    for (const [w, h] of [[1440, 900], [820, 1180], [390, 844]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.screenshot({ path: `${SHOTS}/survey-admin-files-${w}.png`, fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  await page.screenshot({ path: `${SCREENSHOTS}/survey-admin-files.png`, fullPage: true });
  await reportForm.getByRole("button", { name: "Upload Template" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("The template was not uploaded: Line 3: survey 'BIH-001' has no answerable question 'nope'");
  await dialog.getByRole("button", { name: "OK" }).click();

  await reportForm.getByLabel("Template file").setInputFiles({ name: `intake-${run}.txt`, mimeType: "text/plain", buffer: Buffer.from(goodTemplate) });
  await reportForm.getByLabel("Name", { exact: true }).fill(`Intake ${run}`);
  await reportForm.getByLabel("Type").selectOption("Custom");
  await reportForm.getByLabel("Include signature").check();
  // "POST (multipart) to the survey reports config URL plus /UploadSurveyReportTemplate" (spec 04):
  // the form's fields travel as parts beside the file.
  const reportPost = page.waitForRequest((r) => r.method() === "POST" && r.url().endsWith("/api/surveyReportsConfig/UploadSurveyReportTemplate"));
  await reportForm.getByRole("button", { name: "Upload Template" }).click();
  const reportRequest = await reportPost;
  expect(await reportRequest.headerValue("content-type")).toMatch(/^multipart\/form-data; boundary=/);
  // No query: the Type and Include signature the row shows below came as parts.
  expect(new URL(reportRequest.url()).search).toBe("");
  await expect(page.getByText(`Report 'Intake ${run}' uploaded`)).toBeVisible();
  const reportRow = page.getByRole("table", { name: "Survey reports" }).getByRole("row", { name: new RegExp(`Intake ${run}`) });
  await expect(reportRow).toContainText("Custom");
  await expect(reportRow).toContainText(`SurveyReports/intake-${run}.txt`);
  await expect(reportRow).toContainText("Yes");

  // The lexicon opens in a new window, as JSON.
  const [popup] = await Promise.all([context.waitForEvent("page"), page.getByRole("link", { name: "Export lexicon (JSON)" }).click()]);
  await popup.waitForLoadState();
  const raw = await popup.evaluate(() => document.querySelector("pre")?.textContent ?? document.body.innerText);
  const lexicon = JSON.parse(raw.trim());
  const entry = lexicon.find((s: { SurveyId: string }) => s.SurveyId === surveyId);
  expect(entry.Questions[0].Answers[0].Text.es).toBe("Izquierdo");
  await popup.close();

  // Deleting the library brings MissingLibs back.
  await libRow.getByRole("button", { name: `Delete ${libId}.xml` }).click();
  await page.getByRole("dialog", { name: "Delete Library" }).getByRole("button", { name: "Delete" }).click();
  await expect(libRow).toHaveCount(0);
  await expect(row.getByRole("cell").nth(2)).toHaveText(libId);
  await row.getByRole("button", { name: `Delete ${surveyId}` }).click();
  await page.getByRole("dialog", { name: "Delete Survey XML" }).getByRole("button", { name: "Delete" }).click();
  await expect(row).toHaveCount(0);
});
