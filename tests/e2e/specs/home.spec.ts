import { expect, test } from "./fixtures";
import { expectNoAxeViolations, PATIENT_STATE, STAFF_STATE } from "./helpers";

test.describe("patient home", () => {
  test.use({ storageState: PATIENT_STATE });

  test("lists her next appointments, soonest first", async ({ page }) => {
    const response = page.waitForResponse((r) => r.url().endsWith("/api/surveyApi/GetNextAppointmentsForUser"));
    await page.goto("/home");
    const body = (await (await response).json()) as { nextAppointments: { LocationName: string }[] };
    expect(body.nextAppointments.length).toBeGreaterThanOrEqual(2);

    await expect(page.getByRole("heading", { name: "Welcome, Jane Doe" })).toBeVisible();
    const table = page.getByRole("table", { name: "Next appointments" });
    const rows = table.locator("tbody tr");
    await expect(rows).toHaveCount(body.nextAppointments.length);
    await expect(table.getByRole("columnheader", { name: /Appointment Date/ })).toHaveAttribute("aria-sort", "ascending");
    // Dates as wasm-core formats them: 'MM/dd/YYYY' with or without 'hh:mm aa'; a long day name.
    await expect(rows.first().locator("td").first()).toHaveText(/^\d{2}\/\d{2}\/\d{4}( \d{2}:\d{2} (AM|PM))?$/);
    await expect(rows.first().locator("td").nth(1)).toHaveText(/^(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), /);
    const locations = await table.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(locations.sort()).toEqual(body.nextAppointments.map((a) => a.LocationName).sort());
    await expectNoAxeViolations(page);
  });
});

test.describe("staff home", () => {
  test.use({ storageState: STAFF_STATE });

  test("welcomes and links to the role's areas", async ({ page }) => {
    await page.goto("/home");
    await expect(page.getByRole("heading", { name: /^Welcome, / })).toBeVisible();
    await page.getByRole("main").getByRole("link", { name: "History Portal" }).click();
    await expect(page).toHaveURL(/\/admin\/history-portal\/all$/);
  });
});
