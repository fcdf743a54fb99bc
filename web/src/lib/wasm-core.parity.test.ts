// The shared case tables (wasm-core/tests/cases/*.json; the native build runs them in
// wasm-core/tests/cases.rs) run here through the wasm exactly as the app loads it: the package
// `wasm-core` through vite-plugin-wasm. Both builds must give the same answers (STYLE.md).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as core from "wasm-core";

const casesDir = join(__dirname, "..", "..", "..", "wasm-core", "tests", "cases");

// Absent and undefined fields compare equal to null ones (serde_json writes null for None).
function normalise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalise);
  if (value !== null && typeof value === "object") {
    expect(value).not.toBeInstanceOf(Map);
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, normalise(v)]),
    );
  }
  return value;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Input = any;
const runners: Record<string, (i: Input) => unknown> = {
  "password.json": (i) =>
    "repeat" in i ? core.validatePasswordRepeat(i.password, i.repeat) : core.checkPassword(i.password, i.requirements),
  "dates.json": (i) =>
    i.fn === "formatDate"
      ? core.formatDate(i.iso, i.format, i.offsetMinutes, i.zoneAbbr)
      : i.fn === "formatAppointment"
        ? core.formatAppointment(i.iso, i.hideTime, i.offsetMinutes)
        : core.appointmentHeader(i.hideTime),
  "table_state.json": (i) =>
    i.fn === "read"
      ? core.readTableState(i.query, i.listId, i.defaults)
      : i.fn === "write"
        ? core.writeTableState(i.query, i.listId, i.state)
        : core.tableRequest(i.state),
  "menu.json": (i) => core.menuFor(i.perms, i.modules),
  "login.json": (i) => core.validateLogin(i.req, i.askUsername),
  "http_error.json": (i) => core.describeHttpError(i.status, i.body),
};

const files = readdirSync(casesDir)
  .filter((f) => f.endsWith(".json"))
  .sort();

it("every case table has a runner", () => {
  expect(files).toEqual(Object.keys(runners).sort());
});

for (const file of files) {
  const cases = JSON.parse(readFileSync(join(casesDir, file), "utf8")) as { name: string; input: Input; expected: unknown }[];
  describe(file, () => {
    it.each(cases.map((c) => [c.name, c] as const))("%s", (_name, c) => {
      expect(normalise(runners[file](c.input))).toEqual(normalise(c.expected));
    });
  });
}
