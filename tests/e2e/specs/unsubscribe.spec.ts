import { createHmac } from "node:crypto";
import { expect, test } from "./fixtures";
import { expectNoAxeViolations } from "./helpers";

// Unsubscribe (spec 02 §2.9). The demo's unsubscribe secret is fixed (api/src/demo/registration.rs)
// so this test can make the link the notifications engine would put in an email for the demo
// patient Nora Quinn (id 900002); the engine's own link is checked by tests/api/tests/registration.rs.
const DEMO_SECRET = "05ScSc5qvMEU_D2JGobmH01Sjq8NVBF7FPbAaydrI4U";

function unsubscribeToken(patientId: number): string {
  const tag = createHmac("sha256", Buffer.from(DEMO_SECRET, "base64url")).update(`unsubscribe:v1:${patientId}`).digest("base64url");
  return `${patientId}.${tag}`;
}

test("a valid unsubscribe link shows success", async ({ page }) => {
  await page.goto(`/unsubscribe/${unsubscribeToken(900002)}`);
  await expect(page.getByRole("heading", { name: "Unsubscribe" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveText("You have been unsubscribed from notifications.");
  await expect(page.getByTestId("call-provider")).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test("a forged unsubscribe link shows failure and the call-the-provider note", async ({ page }) => {
  const other = unsubscribeToken(900001).split(".")[1];
  await page.goto(`/unsubscribe/900002.${other}`);
  await expect(page.getByRole("status")).toHaveText("We could not unsubscribe you with this link.");
  await expect(page.getByTestId("call-provider")).toHaveText("Please call your provider to stop receiving notifications.");
  await expectNoAxeViolations(page);
});
