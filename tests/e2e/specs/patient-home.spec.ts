import { expect, test } from "./fixtures";
import { expectFieldMessage, expectNoAxeViolations, PATIENT_STATE, signIn } from "./helpers";

interface Survey { Id: number; StatusKey: string; SurveyName: string }

test.describe("patient home pending actions", () => {
  test.use({ storageState: PATIENT_STATE });

  test("lists surveys to begin or resume and unread letters", async ({ page }) => {
    const surveys = page.waitForResponse((r) => r.url().endsWith("/api/surveyApi/GetAvailableSurveysForUser"));
    const letters = page.waitForResponse((r) => r.url().endsWith("/api/documents/GetNotCompletedLetter"));
    await page.goto("/home");
    const available = ((await (await surveys).json()) as { surveys: Survey[] }).surveys;
    const unread = ((await (await letters).json()) as { Count: number }).Count;
    const panel = page.getByRole("region", { name: "Pending actions" });
    const items = panel.getByRole("listitem");
    await expect(items).toHaveCount(available.length + (unread > 0 ? 1 : 0));
    for (const s of available) {
      const verb = s.StatusKey === "IntermediateSave" ? "Resume" : "Begin";
      const link = panel.getByRole("link", { name: `${verb} ${s.SurveyName}` }).first();
      await expect(link).toHaveAttribute("href", `/survey?startType=HistoryPortal&surveyQueueId=${s.Id}`);
    }
    if (available.length > 0) await expect(panel.getByText("pending survey").first()).toBeVisible();
    if (unread > 0) {
      await expect(panel.getByText("unread letter", { exact: true })).toBeVisible();
      await panel.getByRole("link", { name: /unread letter/ }).click();
      await expect(page).toHaveURL(/\/documents\/unread$/);
    }
  });
});

test("a program manager edits the home content; scripts are stripped", async ({ page }) => {
  await signIn(page, "staff", "manager");
  await expect(page).toHaveURL(/\/home$/);
  // Issue 20: staff read their own home content; the patients' is edited beside it.
  await expect(page.getByRole("region", { name: "Staff home page content" }).getByRole("heading", { name: "Welcome to the staff portal" })).toBeVisible();
  const content = page.getByRole("region", { name: "Patient home page content" });
  await expect(content.getByRole("heading", { name: "Welcome to your patient portal" })).toBeVisible();
  await content.getByRole("button", { name: "Edit" }).click();
  await content.getByLabel("Patient home page content (HTML)").fill("<p>Draft that is cancelled</p>");
  await content.getByRole("button", { name: "Cancel" }).click();
  await expect(content.getByRole("heading", { name: "Welcome to your patient portal" })).toBeVisible();

  // The key's rule is wasm-core's (PortalValues, the server's own check): its message under the
  // field, the 'Form is invalid' toast, nothing sent.
  await content.getByRole("button", { name: "Edit" }).click();
  const box = content.getByLabel("Patient home page content (HTML)");
  await box.fill("x".repeat(200_001));
  await content.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Form is invalid")).toBeVisible();
  await expectFieldMessage(box, "Must be at most 200000 characters");
  await expectNoAxeViolations(page, "main");
  // The server's 400 (its bound in bytes: 100,001 two-byte letters) under the same field.
  await box.fill("é".repeat(100_001));
  await expect(box).not.toHaveAttribute("aria-invalid", "true");
  await content.getByRole("button", { name: "Save" }).click();
  await expectFieldMessage(box, "The value is too long.");
  await content.getByRole("button", { name: "Cancel" }).click();
  await expect(content.getByRole("heading", { name: "Welcome to your patient portal" })).toBeVisible();

  let alerted = false;
  page.on("dialog", async (d) => {
    alerted = true;
    await d.dismiss();
  });
  await content.getByRole("button", { name: "Edit" }).click();
  await content
    .getByLabel("Patient home page content (HTML)")
    .fill('<h3>Holiday hours</h3><img src="x" onerror="alert(1)"><script>alert(2)</script><p>Closed on Monday.</p>');
  await content.getByRole("button", { name: "Save" }).click();
  await expect(content.getByRole("heading", { name: "Holiday hours" })).toBeVisible();
  await expect(content.getByText("Closed on Monday.")).toBeVisible();
  await page.reload();
  await expect(content.getByRole("heading", { name: "Holiday hours" })).toBeVisible();
  expect(await content.locator("[onerror], script").count()).toBe(0);
  expect(alerted).toBe(false);
  // Put the default back for the other specs' pictures.
  await content.getByRole("button", { name: "Edit" }).click();
  await content
    .getByLabel("Patient home page content (HTML)")
    .fill("<h3>Welcome to your patient portal</h3><p>Here you can read your letters and results, complete your medical-history survey before your visit, and see your next appointments.</p>");
  await content.getByRole("button", { name: "Save" }).click();
  await expect(content.getByRole("heading", { name: "Welcome to your patient portal" })).toBeVisible();
});
