import { expect, test } from "./fixtures";
import { expectNoAxeViolations } from "./helpers";

// The arrival itself (token -> PatientArrived) is covered by tests/api/tests/iam_here.rs: the
// demo's tokens are random and reach patients only by message, so the page is checked here with
// a link that does not exist.
test("an unknown I Am Here link shows the warning and the server's message", async ({ page }) => {
  const answer = page.waitForResponse((r) => r.url().includes("/api/HistoryPortal/ProcessIAmHere"));
  await page.goto("/IamHere?token=not-a-real-token");
  const body = (await (await answer).json()) as { Mode: string; Message: string };
  expect(body.Mode).toBe("IamHereError");
  await expect(page.getByRole("heading", { name: "I Am Here" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText(body.Message);
  await expect(page.getByTestId("iam-here-date")).toHaveCount(0);
  await expect(page).toHaveTitle("I Am Here");
  await expectNoAxeViolations(page);
});
