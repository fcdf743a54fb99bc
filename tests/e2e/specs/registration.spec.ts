import { expect, test } from "./fixtures";
import { expectHome, expectNoAxeViolations, signIn, STAFF_STATE } from "./helpers";
import { mails, nextMail } from "./mail";

// Self-registration (spec 02 §2.7, §4, §8). The last test goes the whole way: a staff member
// sends the invitation, the key is read from the email the portal really delivered (loopback
// SMTP sink, MAIL_DIR; see run-local.sh), and the patient registers through it. The form's
// messages are checked with the demo's pending key for Rosa Lee (api/src/demo/registration.rs,
// README demo section).
const DEMO_KEY = "demo-registration-key-2026";
// Several pages with an axe pass each: room for a loaded machine.
test.describe.configure({ timeout: 90_000 });

test("a missing key: 'Token is empty. Self registration is not allowed.' and back to the patient login", async ({ page }) => {
  await page.goto("/patient/create");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("Token is empty. Self registration is not allowed.");
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "OK" }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});

test("an unknown or spent key leads to the expired-registration-link page", async ({ page }) => {
  await page.goto("/patient/create?key=not-a-real-key");
  await expect(page).toHaveURL(/\/patient\/expired-registration-link$/);
  await expect(page.getByRole("alert")).toHaveText("Link is expired.");
  await expectNoAxeViolations(page);
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
  await expectNoAxeViolations(page);

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
  await expectNoAxeViolations(page);
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

// Grace Jackson (MRN 100015, generated by api/src/demo/mod.rs): an email, a date of birth, no
// portal account and only a Completed survey, so the staff test above (Assigned rows) never
// meets her and no other spec uses her.
const INVITED = { last: "Jackson", mrn: "100015", email: "grace.jackson15@example.com", dob: ["June", "28", "1960"] };

test("registration through the delivered key: a staff invitation, the emailed link, the account and a sign-in", async ({ page, browser }) => {
  // Two sessions, a delivered email and several pages: more than the default 30 s on a loaded machine.
  test.setTimeout(90_000);
  await signIn(page, "staff", "manager");
  await expectHome(page);
  await page.goto(`/admin/history-portal/all?all_f_DateMode=range&all_f_DateFrom=2000-01-01&all_f_DateTo=2099-12-31&all_q=${INVITED.last}`);
  const rows = page.getByRole("table", { name: "All History Surveys List" }).locator("tbody tr");
  await expect(rows).toHaveCount(1);
  await rows.first().click();
  const dialog = page.getByRole("dialog", { name: "History Portal Survey Details" });
  const field = (label: string) => dialog.locator("dl > div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${label}$`) }) }).locator("dd");
  await expect(field("Patient")).toContainText("Grace");
  await expect(field("MRN")).toHaveText(INVITED.mrn);
  await expect(field("Email")).toHaveText(INVITED.email);

  const seen = mails(INVITED.email);
  await dialog.getByRole("button", { name: "Send Portal Invitation" }).click();
  await expect(page.getByText("Portal invitation sent.")).toBeVisible();
  const mail = await nextMail(INVITED.email, seen, "/patient/create?key=");
  expect(mail).toContain("Dear Grace Jackson,\nyou are invited to create your patient portal account:");
  const link = /(https?:\/\/\S+\/patient\/create\?key=[\w-]+)/.exec(mail)?.[1];
  expect(link, mail).toBeTruthy();

  // The patient opens the link in a browser of their own: nobody signed in.
  const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  try {
    const patient = await context.newPage();
    const errors: string[] = [];
    patient.on("pageerror", (error) => errors.push(error.message));
    await patient.goto(link!);
    await expect(patient).toHaveURL(/\/patient\/create\?key=/);
    await expect(patient.getByTestId("welcome")).toContainText("Welcome, Grace Jackson!");
    await expect(patient.getByLabel("Email", { exact: true })).toHaveValue(INVITED.email);
    const [month, day, year] = INVITED.dob;
    await patient.getByLabel("Month").selectOption({ label: month });
    await patient.getByLabel("Day").selectOption({ label: day });
    await patient.getByLabel("Year").selectOption({ label: year });
    await patient.getByLabel("Username").fill("grace.jackson");
    await patient.getByLabel("Password", { exact: true }).fill("Welcome#2026a");
    await expect(patient.getByRole("list", { name: "Password complexity" }).locator("li.unmet")).toHaveCount(0);
    await patient.getByLabel("Repeat Password", { exact: true }).fill("Welcome#2026a");
    await patient.getByLabel("Phone").pressSequentially("5550101515");
    await patient.getByRole("button", { name: "Register" }).click();
    await expect(patient).toHaveURL(/\/patient\/user-created$/);
    await expect(patient.getByRole("status")).toHaveText("Your patient portal account was created.");

    await signIn(patient, "patient", "grace.jackson", "Welcome#2026a");
    await expectHome(patient);

    // The key was spent by the registration.
    await patient.goto(link!);
    await expect(patient).toHaveURL(/\/patient\/expired-registration-link$/);
    expect(errors, "uncaught errors in the patient's page").toEqual([]);
  } finally {
    await context.close();
  }
});
