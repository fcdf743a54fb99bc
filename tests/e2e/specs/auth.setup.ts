import { test as setup } from "./fixtures";
import { expectHome, PATIENT_STATE, signIn, STAFF_STATE } from "./helpers";

setup("sign in as front desk", async ({ page }) => {
  await signIn(page, "staff", "frontdesk");
  await expectHome(page);
  await page.context().storageState({ path: STAFF_STATE });
});

setup("sign in as patient Jane Doe", async ({ page }) => {
  await signIn(page, "patient", "jane.doe");
  await expectHome(page);
  await page.context().storageState({ path: PATIENT_STATE });
});
