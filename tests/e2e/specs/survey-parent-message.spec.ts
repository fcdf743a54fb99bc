import { expect, test } from "./fixtures";
import { expectNoAxeViolations } from "./helpers";

// Spec 01 §8: 'No surveys available. Please contact administrator.' is also posted to the
// parent window, for a page that embeds the kiosk. The portal here is the one the setup-wizard
// spec has just configured (project "after setup wizard"): configured, and without any survey.

test("an embedded kiosk with no survey posts 'no-survey-available' to its parent", async ({ page, baseURL }) => {
  // The embedding page is the test's own (answered by the browser, never by the portal). It
  // lives on the portal's host: a frame is a secure context, with the Web Crypto the kiosk
  // needs, only when its parent is one, which the about:blank of a bare setContent is not.
  const clinicPage = new URL("/__clinic-page.html", baseURL).toString();
  await page.route(clinicPage, (route) => route.fulfill({ contentType: "text/html", body: "<!doctype html><title>Clinic</title>" }));
  await page.goto(clinicPage);
  await page.setContent(`<!doctype html>
    <html lang="en">
    <title>Clinic page</title>
    <script>
      window.received = [];
      window.addEventListener("message", (e) => window.received.push({ origin: e.origin, data: e.data }));
    </script>
    <iframe title="Survey kiosk" src="/survey" style="width: 900px; height: 600px"></iframe>`);
  const frame = page.frameLocator('iframe[title="Survey kiosk"]');
  await expect(frame.getByRole("alert")).toHaveText("No surveys available. Please contact administrator.");
  await expect(frame.getByLabel("Enter your 4-digit PIN")).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => (window as unknown as { received: unknown[] }).received)).toEqual([
    { origin: new URL(baseURL!).origin, data: { type: "no-survey-available", message: "No surveys available. Please contact administrator." } },
  ]);
  // The kiosk page inside the frame: axe checks frames it can reach.
  await expectNoAxeViolations(page);
  await page.screenshot({ path: test.info().outputPath("survey-parent-message.png") });
});
