import { expect, test } from "./fixtures";
import { expectNoAxeViolations, SCREENSHOTS, STAFF_STATE } from "./helpers";

// Issue 5 part 4: the staff start creates a patient and a study (spec 01 §2.5 "Staff may create
// a patient (from ssn) or a study (from respondent id); success toast 'Patient was created
// successfully {mrn}'", §8 "toast with ErrorMessage"). Front desk on a tablet-sized screen; the
// demo admin PIN is 2468. The demo database is shared by every spec: names and MRNs are unique
// per run.

test.use({ storageState: STAFF_STATE, viewport: { width: 1024, height: 768 } });

const NO_INTERNET = "No internet connnection. Please try again later";

test("front desk creates a patient and a study, then starts the survey", async ({ page, context }) => {
  const stamp = Date.now().toString();
  // Letters only, so the simple search prefills names (a digit would make it an MRN).
  const lastName = `Quill${stamp.replace(/\d/g, (d) => "abcdefghij"[Number(d)])}`;
  const mrn = `E2E-${Number(stamp).toString(36).toUpperCase()}`;

  await page.goto("/survey");
  await page.getByLabel("Admin PIN").fill("2468");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByRole("heading", { name: "Find the patient" })).toBeVisible();

  // Nobody of that name.
  await page.getByLabel("Search patients").fill(`Ada ${lastName}`);
  await expect(page.getByText("No patients found.")).toBeVisible();

  // Create patient, prefilled from the search; the rules' messages under the fields.
  await page.getByRole("button", { name: "Create patient" }).click();
  const dialog = page.getByRole("dialog", { name: "Create patient" });
  await expect(dialog.getByLabel("First name")).toHaveValue("Ada");
  await expect(dialog.getByLabel("Last name")).toHaveValue(lastName);
  await expect(dialog.getByLabel("MRN")).toHaveValue("");
  await dialog.getByRole("button", { name: "Create patient" }).click();
  await expect(dialog.getByText("MRN is required")).toBeVisible();
  await expect(dialog.getByText("Date of Birth is required")).toBeVisible();
  await expect(dialog.getByText("Location is required")).toBeVisible();
  await dialog.getByLabel("MRN").fill("E2");
  await expect(dialog.getByText("MRN must be 3 to 20 characters long")).toBeVisible();
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-create-patient-errors.png` });

  await dialog.getByLabel("MRN").fill(mrn);
  await dialog.getByLabel("Month").selectOption({ label: "July" });
  await dialog.getByLabel("Day").selectOption("9");
  await dialog.getByLabel("Year").selectOption("1984");
  await dialog.getByLabel("Gender (optional)").selectOption("Female");
  await dialog.getByLabel("Phone (optional)").fill("5550104477");
  await expect(dialog.getByLabel("Phone (optional)")).toHaveValue("(555) 010-4477");
  await dialog.getByLabel("Location").selectOption({ label: "Main Campus" });
  await expect(dialog.locator(".survey-field-messages, .field-messages")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.screenshot({ path: `${SCREENSHOTS}/survey-create-patient.png` });

  // Offline: refused with the no-internet text, the form kept.
  await context.setOffline(true);
  await dialog.getByRole("button", { name: "Create patient" }).click();
  await expect(page.getByRole("alert").filter({ hasText: NO_INTERNET })).toBeVisible();
  await expect(dialog.getByLabel("MRN")).toHaveValue(mrn);
  await context.setOffline(false);

  await dialog.getByRole("button", { name: "Create patient" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Patient was created successfully ${mrn}` })).toHaveText(
    new RegExp(`Patient was created successfully ${mrn}`),
  );
  await expect(dialog).toHaveCount(0);
  // The flow goes on with the new patient chosen: no study yet.
  await expect(page.getByRole("heading", { name: `Choose a study for Ada ${lastName}` })).toBeVisible();
  await expect(page.getByText("This patient has no studies.")).toBeVisible();

  // The same MRN again: the server's ErrorMessage as a toast and under the MRN.
  await page.getByRole("button", { name: "Back" }).click();
  await page.getByRole("button", { name: "Create patient" }).click();
  const again = page.getByRole("dialog", { name: "Create patient" });
  await again.getByLabel("MRN").fill(mrn.toLowerCase());
  await again.getByLabel("First name").fill("Ada");
  await again.getByLabel("Last name").fill(lastName);
  await again.getByLabel("Month").selectOption({ label: "July" });
  await again.getByLabel("Day").selectOption("9");
  await again.getByLabel("Year").selectOption("1984");
  await again.getByLabel("Location").selectOption({ label: "Main Campus" });
  await again.getByRole("button", { name: "Create patient" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "A patient with this MRN already exists" })).toBeVisible();
  await expect(again.locator(".survey-field-messages")).toHaveText("A patient with this MRN already exists");
  await again.getByRole("button", { name: "Cancel" }).click();

  // Find the new patient, create a study for today, and the survey step follows with it chosen.
  await page.getByLabel("Search patients").fill(mrn);
  const rows = page.locator(".survey-staff-table tbody tr");
  await expect(rows).toHaveCount(1);
  await rows.first().getByRole("button", { name: "Choose" }).click();
  await page.getByRole("button", { name: "Create study" }).click();
  const study = page.getByRole("dialog", { name: "Create study" });
  await study.getByRole("button", { name: "Create study" }).click();
  await expect(study.getByText("Location is required")).toBeVisible();
  await study.getByLabel("Location").selectOption({ label: "Main Campus" });
  await study.getByLabel("Description (optional)").fill("Walk-in screening");
  await page.screenshot({ path: `${SCREENSHOTS}/survey-create-study.png` });
  await study.getByRole("button", { name: "Create study" }).click();
  await expect(page.getByRole("status").filter({ hasText: `Patient was created successfully ${mrn}` }).first()).toBeVisible();
  await expect(page.getByRole("heading", { name: `Choose a survey for Ada ${lastName}` })).toBeVisible();

  // The study is in the list too (date only: it stands for the whole day).
  await page.getByRole("button", { name: "Back" }).click();
  await page.getByLabel("Search patients").fill(mrn);
  await rows.first().getByRole("button", { name: "Choose" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().locator("td").first()).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
  await expect(rows.first()).toContainText("Walk-in screening");
  await rows.first().getByRole("button", { name: "Choose" }).click();

  await page.getByRole("radiogroup", { name: "Survey" }).getByRole("radio", { name: "Pre-Exam Screening" }).check();
  await page.getByRole("button", { name: "Start", exact: true }).click();
  await expect(page.getByText("Survey PIN:")).toBeVisible();
  await page.getByRole("button", { name: "Start survey" }).click();
  await expect(page.getByRole("heading", { name: "Pre-Exam Screening" })).toBeVisible();
});
