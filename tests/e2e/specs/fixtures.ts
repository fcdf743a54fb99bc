import { test as base, expect } from "@playwright/test";

// Every spec fails on an uncaught exception in the page, even when what it looked at was fine.
export const test = base.extend<{ noPageErrors: void }>({
  noPageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));
      await use();
      expect(errors, "uncaught errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
export type { Page } from "@playwright/test";
