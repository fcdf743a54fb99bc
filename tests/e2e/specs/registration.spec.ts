import { expect, test } from "./fixtures";
import { signIn, STAFF_STATE } from "./helpers";

// Self-registration (spec 02 §2.7, §4, §8). The key normally arrives by email (that path is
// covered by tests/api/tests/registration.rs with a real SMTP server); here the demo's pending
// key for Rosa Lee (api/src/demo/registration.rs, README demo section) stands in for the email.
const DEMO_KEY = "demo-registration-key-2026";

test("a missing key: 'Token is empty. Self registration is not allowed.' and back to the patient login", async ({ page }) => {
  await page.goto("/patient/create");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Token is empty. Self registration is not allowed.");
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});

test("an unknown or spent key leads to the expired-registration-link page", async ({ page }) => {
  await page.goto("/patient/create?key=not-a-real-key");
  await expect(page).toHaveURL(/\/patient\/expired-registration-link$/);
  await expect(page.getByRole("alert")).toHaveText("Link is expired.");
  await page.getByRole("link", { name: "Back to Login" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});

test("registering through a key: messages, a wrong date of birth, then the account and a sign-in", async ({ page }) => {
  await page.goto(`/patient/create?key=${DEMO_KEY}`);
  await expect(page.getByTestId("welcome")).toContainText("Welcome, Rosa Lee!");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("rosa.lee@demo-imaging.example");
  await expect(page.getByLabel("Email", { exact: true })).toHaveAttribute("readonly", "");
  // Submitting empty: the wasm-core messages under their fields.
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Date of Birth is required")).toBeVisible();
  await expect(page.getByText("Username is required")).toBeVisible();
  await expect(page.getByText("Email or Phone recovery is required")).toBeVisible();

  await page.getByLabel("Month").selectOption("April");
  await page.getByLabel("Day").selectOption("12");
  await page.getByLabel("Year").selectOption("1981");
  await page.getByLabel("Username").fill("rosa.lee");
  await page.getByLabel("Password", { exact: true }).fill("Register!2026");
  await expect(page.getByRole("list", { name: "Password complexity" }).locator("li.unmet")).toHaveCount(0);
  await page.getByLabel("Repeat Password", { exact: true }).fill("Register!2026");
  await page.getByRole("button", { name: "Show Password", exact: true }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
  await page.getByLabel("Phone").pressSequentially("5550102030");
  await expect(page.getByLabel("Phone")).toHaveValue("(555) 010-2030");

  // The date of birth on record is 1980: 'Error on user creation' with the server's message.
  await page.getByRole("button", { name: "Register" }).click();
  const dialog = page.getByRole("dialog", { name: "Error on user creation" });
  await expect(dialog).toContainText("Date of Birth does not match our records");
  await dialog.getByRole("button", { name: "OK" }).click();

  await page.getByLabel("Year").selectOption("1980");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/patient\/user-created$/);
  await expect(page.getByRole("status")).toHaveText("Your patient portal account was created.");
  await page.getByRole("link", { name: "Log In" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
  await signIn(page, "patient", "rosa.lee", "Register!2026");
  await expect(page).toHaveURL(/\/home$/);

  // The key is spent now.
  await page.goto(`/patient/create?key=${DEMO_KEY}`);
  await expect(page).toHaveURL(/\/patient\/expired-registration-link$/);
});

test.describe("staff", () => {
  test.use({ storageState: STAFF_STATE });

  test("the History Portal details modal sends a portal invitation to a patient without an account", async ({ page }) => {
    await page.goto("/admin/history-portal/all?all_f_DateMode=range&all_f_DateFrom=2000-01-01&all_f_DateTo=2099-12-31&all_f_Status=Assigned");
    const rows = page.getByRole("table", { name: "All History Surveys List" }).locator("tbody tr");
    await expect(rows.first()).toBeVisible();
    const dialog = page.getByRole("dialog", { name: "History Portal Survey Details" });
    let invited = false;
    for (let i = 0; i < 10 && !invited; i++) {
      const name = (await rows.nth(i).locator("td").first().textContent()) ?? "";
      await rows.nth(i).click();
      await expect(dialog).toBeVisible();
      const email = dialog.locator("dl > div").filter({ has: page.locator("dt", { hasText: /^Email$/ }) }).locator("dd");
      const hasEmail = (await email.textContent()) !== "N/A";
      const hasAccount = /Doe|Garcia/.test(name);
      const button = dialog.getByRole("button", { name: "Send Portal Invitation" });
      if (hasEmail && !hasAccount) {
        await button.click();
        await expect(page.getByText("Portal invitation sent.")).toBeVisible();
        invited = true;
      } else {
        await expect(button).toHaveCount(0);
      }
      await dialog.locator(".modal-footer").getByRole("button", { name: "Close" }).click();
      await expect(dialog).toHaveCount(0);
    }
    expect(invited, "one of the first ten patients has an email and no account").toBe(true);
  });
});
