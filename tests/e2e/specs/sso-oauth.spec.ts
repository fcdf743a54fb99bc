import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations, mainMenu, SCREENSHOTS, signIn } from "./helpers";

// Epic SMART on FHIR and Cerner OAuth (issue 19) against the real test authorization server
// (tests/oidc-provider) that run-local.sh starts, on a demo portal of their own
// (OAUTH_PORTAL_URL): these tests switch the SSO group and the login page's health-record link.
test.describe.configure({ mode: "serial" });

const OAUTH_PORTAL_URL = process.env.OAUTH_PORTAL_URL ?? "";
const OIDC_URL = process.env.OIDC_URL ?? "";
const EPIC_KEY_FILE = process.env.EPIC_KEY_FILE ?? "";
const KEY = "clinic7";
const JANE_MRN = "100001";

test.use({ baseURL: OAUTH_PORTAL_URL });

async function csrf(page: Page) {
  return (await page.context().cookies()).find((c) => c.name === "portal_csrf")!.value;
}

test("configure Epic and Cerner OAuth (SSO Management shows the Epic Test Url)", async ({ page }) => {
  expect(OIDC_URL, "run-local.sh starts the test authorization server").not.toBe("");
  await signIn(page, "staff", "manager");
  const core = await (await page.request.get("/api/configurationForm/CorePortal")).json();
  const put = await page.request.put("/api/configurationForm/CorePortal", {
    headers: { "X-CSRF-Token": await csrf(page) },
    data: { Version: core.Version, Settings: { ...core.Settings, PublicWebAddress: `${OAUTH_PORTAL_URL}/`, IsCernerOAuthEnabled: true } },
  });
  expect(put.status()).toBe(200);
  const current = await (await page.request.get("/api/ssoConfiguration/loadConfiguration")).json();
  const saved = await page.request.post("/api/ssoConfiguration/SaveConfigurationEpicSmartOnFhirTesseract", {
    headers: { "X-CSRF-Token": await csrf(page) },
    data: {
      Version: current.Version,
      Settings: {
        ...current.Settings,
        PortalMode: "SSO",
        IntegrationType: "EpicSmartOnFhirTesseract",
        Key: KEY,
        EpicApiBaseUrl: `${OIDC_URL}/fhir`,
        EpicClientId: "portal-epic",
        EpicJwtPrivateKey: readFileSync(EPIC_KEY_FILE, "utf8"),
        IsCernerOAuthEnabled: true,
        CernerOAuthUrl: `${OIDC_URL}/fhir`,
        CernerOAuthKey: "portal-cerner",
        CernerOAuthSecret: "cerner-test-secret",
        ShowBackToMainMenuInSSO: true,
        ShowBackToMainMenuAsLinkInSSO: true,
        ReturnURL: "/patient/login",
      },
    },
  });
  expect(saved.status()).toBe(200);
  await page.goto("/admin/core-settings/sso");
  const form = page.getByRole("form", { name: "SSO Management" });
  await expect(form.getByLabel("Epic API base URL")).toHaveValue(`${OIDC_URL}/fhir`);
  await expect(form.getByRole("link", { name: "Test Url" })).toHaveAttribute("href", `/sso/epic/${KEY}`);
  await expectNoAxeViolations(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/sso-epic-settings-${width}.png`, fullPage: true });
  }
});

async function epicLaunch(page: Page, patient: string) {
  const made = await page.request.post(`${OIDC_URL}/test/launch?patient=${encodeURIComponent(patient)}`);
  const { launch } = await made.json();
  await page.goto(`/sso/epic/${KEY}?iss=${encodeURIComponent(`${OIDC_URL}/fhir`)}&launch=${launch}`);
}

test("Epic EHR launch: lands on documents in SSO mode, Home hidden", async ({ page }) => {
  await epicLaunch(page, JANE_MRN);
  await expect(page).toHaveURL(new RegExp(`/documents/all/${KEY}/[A-Za-z0-9_-]{40,}$`));
  await expect(page.getByRole("table", { name: "Letters" })).toBeVisible();
  await expect(mainMenu(page).getByRole("link", { name: "Home" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  await page.goto("/home");
  await expect(page).toHaveURL(/\/documents\//);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/sso-epic-documents-${width}.png`, fullPage: true });
  }
});

test("Epic launch for a patient the portal does not know: the error page, and Go Back works", async ({ page }) => {
  await epicLaunch(page, "999999999");
  await expect(page).toHaveURL(new RegExp(`/embed/error/sso/${KEY}/SignInFailed$`));
  const main = page.getByRole("main", { name: "Error" });
  await expect(main).toContainText("We could not sign you in.");
  await expectNoAxeViolations(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/sso-epic-error-${width}.png`, fullPage: true });
  }
  await main.getByRole("link", { name: /Back to main menu/ }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});

async function cernerSignIn(page: Page, patient: string) {
  await page.goto("/patient/login");
  await page.getByRole("link", { name: "Sign in with your health record" }).click();
  await expect(page).toHaveURL(new RegExp(`^${OIDC_URL}/interaction/`));
  await page.getByLabel("Patient ID").fill(patient);
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("Cerner: the login page's health-record link signs the patient in (documents, SSO mode)", async ({ page }) => {
  await cernerSignIn(page, JANE_MRN);
  await expect(page).toHaveURL(new RegExp(`/documents/all/${KEY}/[A-Za-z0-9_-]{40,}$`));
  await expect(page.getByRole("table", { name: "Letters" })).toBeVisible();
  await expect(mainMenu(page).getByRole("link", { name: "Home" })).toHaveCount(0);
  await expectNoAxeViolations(page);
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENSHOTS}/sso-cerner-documents-${width}.png`, fullPage: true });
  }
});

test("Cerner: an unknown patient gets the error page, and Go Back works", async ({ page }) => {
  await cernerSignIn(page, "NO-SUCH-PATIENT");
  await expect(page).toHaveURL(new RegExp(`/embed/error/sso/${KEY}/SignInFailed$`));
  const main = page.getByRole("main", { name: "Error" });
  await expect(main).toContainText("We could not sign you in.");
  await expectNoAxeViolations(page);
  await main.getByRole("link", { name: /Back to main menu/ }).click();
  await expect(page).toHaveURL(/\/patient\/login$/);
});
