import { beforeAll, describe, expect, it } from "vitest";
import { loadSettingsRules } from "../../lib/wasm-settings";
import { messagesOf, settingsResolver, toFieldErrors, wasmResolver } from "./resolver";
import { validateLogin, type HistoryPortal } from "../../lib/wasm";

const resolve = <T extends object>(resolver: ReturnType<typeof settingsResolver>, values: T) =>
  resolver(values as never, undefined, { fields: {}, shouldUseNativeValidation: false });

describe("the wasm-core resolver", () => {
  // The settings rules are their own wasm package, loaded on first use (lib/wasm-settings.ts).
  beforeAll(async () => {
    await loadSettingsRules();
  });

  it("gives the group's messages from validateSettings, the same check the server runs", async () => {
    const values: HistoryPortal = { HistoryPortalSurveyReminderEndTime: 25, HistoryPortalMaxReadyForExamEmail: -2, HrsAppointmentTimeValue: Number.NaN };
    const result = await resolve(settingsResolver("HistoryPortal"), values);
    expect(result.values).toEqual({});
    expect(messagesOf(result.errors.HistoryPortalSurveyReminderEndTime as never)).toEqual(["Must be between 0 and 24"]);
    expect(messagesOf(result.errors.HistoryPortalMaxReadyForExamEmail as never)).toEqual(["Must be between -1 and 99"]);
    // An empty number box (NaN) gets the field's own message, not a parse error.
    expect(messagesOf(result.errors.HrsAppointmentTimeValue as never)).toEqual(["Required"]);
  });

  it("passes valid values through unchanged", async () => {
    const values: HistoryPortal = { HistoryPortalSurveyReminderStartTime: 8, HistoryPortalSurveyReminderEndTime: 18 };
    const result = await resolve(settingsResolver("HistoryPortal"), values);
    expect(result.errors).toEqual({});
    expect(result.values).toBe(values);
  });

  it("keeps every message of a field, in order, and puts whole-form messages under root", async () => {
    const errors = toFieldErrors({ A: ["one", "two"], "": ["Unknown settings group"] });
    expect(messagesOf(errors.A as never)).toEqual(["one", "two"]);
    expect(errors.root?.message).toBe("Unknown settings group");
    const unknown = await resolve(settingsResolver("NoSuchGroup"), {});
    expect(unknown.errors.root?.message).toBe("Unknown settings group");
  });

  it("nests a dotted field's messages as react-hook-form holds the field (FirstManager.Username, List.0.Label)", () => {
    const errors = toFieldErrors({ "FirstManager.Username": ["Username is required"], "Rows.1.Label": ["Required"], Other: ["x"] });
    const nested = errors as unknown as { FirstManager: { Username: never }; Rows: Record<string, { Label: never }> };
    expect(messagesOf(nested.FirstManager.Username)).toEqual(["Username is required"]);
    expect(messagesOf(nested.Rows[1].Label)).toEqual(["Required"]);
    expect(messagesOf(errors.Other as never)).toEqual(["x"]);
  });

  it("wraps any wasm-core validate function", async () => {
    const resolver = wasmResolver((values: { usernameOrEmail: string; password: string }) => validateLogin(values, true));
    const result = await resolver({ usernameOrEmail: "", password: "" }, undefined, { fields: {}, shouldUseNativeValidation: false });
    expect(Object.keys(result.errors).length).toBeGreaterThan(0);
  });
});
