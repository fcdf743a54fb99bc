import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type Page } from "./fixtures";
import { expectFieldMessage, expectNoAxeViolations, SCREENSHOTS, signIn } from "./helpers";

// Survey Integrations Management (spec 04 §2 "Survey integrations", §3, §8; issue 17):
// powerscribe-integration (default), maglink-integration and webhook-integration. Each page is
// saved for real against the demo portal and put back as it was at the end.
test.describe.configure({ mode: "serial" });

const SAVED = "Configuration has been successfully saved!";

async function shots(page: Page, name: string, ready: () => Promise<void>) {
  for (const width of [1280, 820, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.reload();
    await ready();
    await page.screenshot({ path: `${SCREENSHOTS}/survey-integrations-${name}-${width}.png`, fullPage: true });
    await expectNoAxeViolations(page);
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

async function save(page: Page, form: string) {
  const saved = page.waitForResponse((r) => /\/api\/(surveySettings|configurationForm)\//.test(r.url()) && ["PUT", "POST"].includes(r.request().method()));
  await page.getByRole("form", { name: form }).getByRole("button", { name: "Save" }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText(SAVED).last()).toBeVisible();
}

test("Powerscribe integration and survey actions: checkboxes, actions by description, saved with the toast", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/integrations");
  await expect(page).toHaveURL(/integrations\/powerscribe-integration$/);
  await expect(page.getByRole("heading", { level: 1, name: "Survey Integrations Management" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Survey Integrations" }).getByRole("link", { name: "Powerscribe" })).toHaveAttribute("aria-current", "page");

  const powerscribe = page.getByRole("form", { name: "Powerscribe Integration" });
  await powerscribe.getByRole("checkbox", { name: "Survey Start" }).check();
  const startAction = powerscribe.getByLabel("Execute action on survey start");
  // The actions are listed by description (LoadTechpadActionsForExam).
  await expect(startAction.getByRole("option", { name: "Mark the patient's appointment ready for the exam" })).toHaveCount(1);
  await startAction.selectOption({ label: "Mark the patient's appointment ready for the exam" });
  await save(page, "Powerscribe Integration");

  const actions = page.getByRole("form", { name: "Survey Actions Settings" });
  await actions.getByRole("checkbox", { name: "Call actions on Survey End" }).check();
  const end = actions.getByRole("group", { name: "Actions on Survey End" });
  await end.getByRole("checkbox", { name: "Generate the survey summary PDF as a letter" }).check();
  await end.getByRole("checkbox", { name: /Notify the front desk/ }).check();
  // Saved with spec 04 §7's own call, POST /api/surveySettings/actionsSettings.
  const actionsPost = page.waitForRequest((r) => r.url().endsWith("/api/surveySettings/actionsSettings") && r.method() !== "GET");
  await save(page, "Survey Actions Settings");
  expect((await actionsPost).method()).toBe("POST");

  // After a reload the choices are the server's.
  await page.reload();
  await expect(page.getByRole("form", { name: "Powerscribe Integration" }).getByLabel("Execute action on survey start")).toHaveValue("Portal.Actions.MarkStudyReady");
  const endAgain = page.getByRole("form", { name: "Survey Actions Settings" }).getByRole("group", { name: "Actions on Survey End" });
  await expect(endAgain.getByRole("checkbox", { name: "Generate the survey summary PDF as a letter" })).toBeChecked();
  await expect(endAgain.getByRole("checkbox", { name: /Notify the front desk/ })).toBeChecked();
  await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
  await shots(page, "powerscribe", async () => {
    await expect(page.getByRole("form", { name: "Survey Actions Settings" })).toBeVisible();
  });

  // Put the demo back.
  await page.getByRole("form", { name: "Powerscribe Integration" }).getByRole("checkbox", { name: "Survey Start" }).uncheck();
  await page.getByRole("form", { name: "Powerscribe Integration" }).getByLabel("Execute action on survey start").selectOption({ label: "None" });
  await save(page, "Powerscribe Integration");
  const form = page.getByRole("form", { name: "Survey Actions Settings" });
  await form.getByRole("checkbox", { name: "Call actions on Survey End" }).uncheck();
  await form.getByRole("group", { name: "Actions on Survey End" }).getByRole("checkbox", { name: "Generate the survey summary PDF as a letter" }).uncheck();
  await form.getByRole("group", { name: "Actions on Survey End" }).getByRole("checkbox", { name: /Notify the front desk/ }).uncheck();
  await save(page, "Survey Actions Settings");
});

test("Maglink integration: path and message type follow their checkbox", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/integrations/maglink-integration");
  const form = page.getByRole("form", { name: "Maglink Integration" });
  const submit = form.getByRole("group", { name: "Survey Submit" });
  await expect(submit.getByLabel("Interface queue path")).toBeDisabled();
  await expect(submit.getByLabel("Message type")).toBeDisabled();
  await submit.getByRole("checkbox", { name: "Survey Submit" }).check();
  await expect(submit.getByLabel("Interface queue path")).toBeEnabled();
  await submit.getByLabel("Interface queue path").fill(mkdtempSync(join(tmpdir(), "maglink-")));
  await submit.getByLabel("Message type").selectOption("HL7 ORU^R01");
  // The start queue stays off: its inputs stay disabled.
  await expect(form.getByRole("group", { name: "Survey Start" }).getByLabel("Interface queue path")).toBeDisabled();
  await save(page, "Maglink Integration");
  await page.reload();
  await expect(page.getByRole("form", { name: "Maglink Integration" }).getByRole("group", { name: "Survey Submit" }).getByLabel("Message type")).toHaveValue("HL7 ORU^R01");
  await shots(page, "maglink", async () => {
    await expect(page.getByRole("form", { name: "Maglink Integration" })).toBeVisible();
  });
  const again = page.getByRole("form", { name: "Maglink Integration" }).getByRole("group", { name: "Survey Submit" });
  await again.getByRole("checkbox", { name: "Survey Submit" }).uncheck();
  await expect(again.getByLabel("Interface queue path")).toBeDisabled();
  await save(page, "Maglink Integration");
});

test("Webhook integration: Url disabled in test mode, required rows stay, Add More, 'Form is invalid'", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/integrations/webhook-integration");
  const form = page.getByRole("form", { name: "Webhook Integration" });
  await expect(form.getByLabel("Url")).toHaveCount(0);
  await form.getByRole("checkbox", { name: "Enable WebHook" }).check();
  await expect(form.getByLabel("Url")).toBeEnabled();
  await expect(form.getByLabel("Authorization Type")).toBeVisible();
  for (const type of ["None", "Basic (user name and password)", "Bearer token", "API key header", "HMAC-SHA256 signature of the body"]) {
    await expect(form.getByLabel("Authorization Type").getByRole("option", { name: type })).toHaveCount(1);
  }
  // The default rows a receiver needs are required: no Remove.
  const headers = form.getByRole("group", { name: "Request headers" });
  await expect(headers.getByText("Required: header 1 cannot be removed")).toBeVisible();
  await expect(headers.getByRole("button", { name: "Remove header 1" })).toHaveCount(0);
  const parameters = form.getByRole("group", { name: "Request body parameters" });
  await expect(parameters.getByLabel("Parameter type 1")).toHaveValue("Event");
  await expect(parameters.getByRole("button", { name: "Remove parameter 3" })).toBeVisible();

  // Add More gives an empty row; saving it says 'Form is invalid'.
  await headers.getByRole("button", { name: "Add More" }).click();
  await form.getByLabel("Url").fill("https://hooks.example.test/survey");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid").last()).toBeVisible();
  await expectFieldMessage(headers.getByLabel("Header name 2"), "Header name is required");
  await headers.getByLabel("Header name 2").fill("X-Clinic");
  await headers.getByLabel("Header value 2").fill("demo");

  // HMAC: a signing key, kept secret. Test mode disables the Url.
  await form.getByLabel("Authorization Type").selectOption("HmacSha256");
  await form.getByLabel("Signing key").fill("e2e-signing-key");
  await form.getByRole("checkbox", { name: "Test Mode" }).check();
  await expect(form.getByLabel("Url")).toBeDisabled();
  await save(page, "Webhook Integration");
  await page.reload();
  const reloaded = page.getByRole("form", { name: "Webhook Integration" });
  await expect(reloaded.getByLabel("Header name 2")).toHaveValue("X-Clinic");
  await expect(reloaded.getByLabel("Signing key")).toHaveValue("");
  await expect(reloaded.getByLabel("Signing key")).toHaveAccessibleDescription(/^A value is stored\. Leave this empty to keep it\./);
  await shots(page, "webhook", async () => {
    await expect(page.getByRole("form", { name: "Webhook Integration" }).getByLabel("Url")).toBeVisible();
  });

  // Put the demo back: the extra row removed, the webhook off.
  const back = page.getByRole("form", { name: "Webhook Integration" });
  await back.getByRole("group", { name: "Request headers" }).getByRole("button", { name: "Remove header 2" }).click();
  await back.getByRole("checkbox", { name: "Enable WebHook" }).uncheck();
  await save(page, "Webhook Integration");
});

test("Webhook integration: the page manages a list of webhooks (add, edit, remove)", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/integrations/webhook-integration");
  const form = page.getByRole("form", { name: "Webhook Integration" });
  await expect(form.getByRole("group", { name: "WebHook 1" })).toBeVisible();
  await expect(form.getByRole("group", { name: "WebHook 2" })).toHaveCount(0);

  // A second webhook starts with the rows every webhook requires, and is edited on its own.
  await form.getByRole("button", { name: "Add WebHook" }).click();
  const second = form.getByRole("group", { name: "WebHook 2" });
  await second.getByRole("checkbox", { name: "Enable WebHook" }).check();
  await expect(second.getByRole("group", { name: "Request headers" }).getByText("Required: header 1 cannot be removed")).toBeVisible();
  await expect(second.getByRole("group", { name: "Request body parameters" }).getByLabel("Parameter type 1")).toHaveValue("Event");
  await second.getByLabel("Url").fill("https://second.example.test/hook");
  await second.getByLabel("Authorization Type").selectOption("Bearer");
  await expect(form.getByLabel("Password, token, API key or signing key")).toBeVisible();
  await save(page, "Webhook Integration");
  await page.reload();
  const reloaded = page.getByRole("form", { name: "Webhook Integration" });
  const secondAgain = reloaded.getByRole("group", { name: "WebHook 2" });
  await expect(secondAgain.getByLabel("Url")).toHaveValue("https://second.example.test/hook");
  await expect(secondAgain.getByLabel("Authorization Type")).toHaveValue("Bearer");
  await expect(reloaded.getByRole("group", { name: "WebHook 1" }).getByLabel("Url")).toHaveCount(0);
  await expectNoAxeViolations(page);
  await shots(page, "webhook-list", async () => {
    await expect(page.getByRole("form", { name: "Webhook Integration" }).getByRole("group", { name: "WebHook 2" })).toBeVisible();
  });

  // Removing it leaves the first one as it was.
  await reloaded.getByRole("button", { name: "Remove WebHook 2" }).click();
  await save(page, "Webhook Integration");
  await page.reload();
  await expect(page.getByRole("form", { name: "Webhook Integration" }).getByRole("group", { name: "WebHook 2" })).toHaveCount(0);
  await expect(page.getByRole("form", { name: "Webhook Integration" }).getByRole("group", { name: "WebHook 1" })).toBeVisible();
});

test("Webhook integration: each webhook has its own credential, shown as stored, never in clear", async ({ page }) => {
  test.setTimeout(180_000);
  const token = "e2e-token-of-webhook-2";
  await signIn(page, "staff", "manager");
  await page.goto("/admin/survey-settings/integrations/webhook-integration");
  const form = page.getByRole("form", { name: "Webhook Integration" });
  await form.getByRole("button", { name: "Add WebHook" }).click();
  const second = form.getByRole("group", { name: "WebHook 2" });
  await second.getByRole("checkbox", { name: "Enable WebHook" }).check();
  await second.getByLabel("Url").fill("https://second.example.test/hook");
  await second.getByLabel("Authorization Type").selectOption("Bearer");
  const box = second.getByLabel("Password, token, API key or signing key");
  await expect(box).toHaveAttribute("type", "password");
  await expect(box).toHaveAccessibleDescription("This webhook's own; stored encrypted.");
  await box.fill(token);
  const answer = page.waitForResponse((r) => r.url().endsWith("/SurveyWebhookIntegration") && r.request().method() === "PUT");
  await save(page, "Webhook Integration");
  expect(await (await answer).text()).not.toContain(token);

  // Reloaded: WebHook 2 says its credential is stored; the value is nowhere on the page or in
  // what the server answers.
  const loaded = page.waitForResponse((r) => r.url().endsWith("/SurveyWebhookIntegration") && r.request().method() === "GET");
  await page.reload();
  const body = await (await loaded).text();
  expect(body).not.toContain(token);
  expect(body).toContain("WebHooks.1.AuthorizationSecret");
  const again = page.getByRole("form", { name: "Webhook Integration" }).getByRole("group", { name: "WebHook 2" });
  const stored = again.getByLabel("Password, token, API key or signing key");
  await expect(stored).toHaveValue("");
  await expect(stored).toHaveAttribute("placeholder", "(stored)");
  await expect(stored).toHaveAccessibleDescription("A value is stored. Leave this empty to keep it. This webhook's own; stored encrypted.");
  await expect(page.locator("body")).not.toContainText(token);
  await expectNoAxeViolations(page);
  await shots(page, "webhook-credential", async () => {
    await expect(page.getByRole("form", { name: "Webhook Integration" }).getByRole("group", { name: "WebHook 2" }).getByRole("button", { name: "Clear credential" })).toBeVisible();
  });

  // Clear credential: said before the save, gone after it.
  const cleared = page.getByRole("form", { name: "Webhook Integration" }).getByRole("group", { name: "WebHook 2" });
  await cleared.getByRole("button", { name: "Clear credential" }).click();
  await expect(cleared.getByRole("status")).toHaveText("WebHook 2's credential will be removed when you save.");
  await expect(cleared.getByLabel("Password, token, API key or signing key")).toHaveCount(0);
  await save(page, "Webhook Integration");
  await page.reload();
  const after = page.getByRole("form", { name: "Webhook Integration" }).getByRole("group", { name: "WebHook 2" });
  await expect(after.getByLabel("Password, token, API key or signing key")).toHaveAccessibleDescription("This webhook's own; stored encrypted.");
  await expect(after.getByRole("button", { name: "Clear credential" })).toHaveCount(0);

  // Put the demo back: the second webhook removed.
  await page.getByRole("form", { name: "Webhook Integration" }).getByRole("button", { name: "Remove WebHook 2" }).click();
  await save(page, "Webhook Integration");
});
