import { expect, test } from "./fixtures";
import { expectNoAxeViolations } from "./helpers";

// Online survey registration (spec 02 §2.8, §4, §8). The emailed survey link, known patients
// and 'You have already completed survey' are covered by tests/api/tests/registration.rs.

test("a new person: email, then the person's fields, then the survey is assigned", async ({ page }) => {
  const email = `walk.in.${Date.now()}@example.test`;
  await page.goto("/register?locNum=101");
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page.getByText("Email Address is required")).toBeVisible();
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Next" }).click();

  // Step 2: the new person's fields.
  await expect(page.getByLabel("First Name")).toBeVisible();
  await expect(page.getByLabel("Email Address")).toHaveValue(email);
  await page.getByRole("button", { name: "Assign Survey" }).click();
  for (const message of ["First Name is required", "Last Name is required", "Gender is required", "Date of Birth is required"]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel("First Name").fill("Wendy");
  await page.getByLabel("Last Name").fill("Walker");
  await page.getByLabel("Female").check();
  await page.getByLabel("Month").selectOption("March");
  await page.getByLabel("Day").selectOption("3");
  await page.getByLabel("Year").selectOption("1979");
  await page.getByLabel("Phone").pressSequentially("5551234567");
  await expect(page.getByLabel("Phone")).toHaveValue("(555) 123-4567");
  await page.getByRole("button", { name: "Assign Survey" }).click();
  await expect(page).toHaveURL(/\/patient-registered$/);
  await expect(page.getByRole("status")).toContainText("We have sent you an email with a link to your medical history survey.");

  // The same email again: known, with a survey to do: straight to patient-registered.
  await page.goto("/register?locNum=101");
  await page.getByLabel("Email Address").fill(email);
  await page.getByRole("button", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/patient-registered$/);
});

test("an unknown location is refused with a clear message before anything is asked", async ({ page }) => {
  // Issue 20: the link's location is checked first, on a page of its own, not in a bare modal
  // after the email was typed.
  await page.goto("/register?locNum=999");
  await expect(page.getByRole("heading", { name: "This link is not valid" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("This registration link is not valid");
  await expect(page.getByLabel("Email Address")).toHaveCount(0);
  await expectNoAxeViolations(page);
});
