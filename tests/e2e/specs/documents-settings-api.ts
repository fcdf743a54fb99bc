import { expect, type Browser, type Page } from "@playwright/test";
import { signIn } from "./helpers";

/** A program manager's session that saves documents settings groups through the API the settings
 * pages use (GET then PUT with the Version), and puts back what it changed. */
export class DocumentsSettingsApi {
  private originals = new Map<string, Record<string, unknown>>();

  private constructor(readonly page: Page) {}

  /** `baseURL`: a portal of the spec's own (own-portal.ts) instead of the shared one. */
  static async open(browser: Browser, baseURL?: string): Promise<DocumentsSettingsApi> {
    // An explicit `baseURL: undefined` would override the config's: pass it only when given.
    const context = await browser.newContext({ storageState: undefined, ...(baseURL ? { baseURL } : {}) });
    const page = await context.newPage();
    await signIn(page, "staff", "manager");
    await expect(page).toHaveURL(/\/home$/);
    return new DocumentsSettingsApi(page);
  }

  async save(group: string, fields: Record<string, unknown>) {
    const csrf = (await this.page.context().cookies()).find((c) => c.name === "portal_csrf")!.value;
    const current = await (await this.page.request.get(`/api/configurationForm/${group}`)).json();
    if (!this.originals.has(group)) this.originals.set(group, current.Settings);
    const saved = await this.page.request.put(`/api/configurationForm/${group}`, {
      headers: { "X-CSRF-Token": csrf },
      data: { Version: current.Version, Settings: { ...current.Settings, ...fields } },
    });
    expect(saved.status()).toBe(200);
  }

  /** Every group changed goes back to what it was. */
  async restore() {
    for (const [group, settings] of this.originals) await this.save(group, settings);
    this.originals.clear();
    await this.page.context().close();
  }
}
