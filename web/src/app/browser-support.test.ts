import { describe, expect, it } from "vitest";
import { missingFeatures, showUnsupportedBrowser, UNSUPPORTED_TEXT } from "./browser-support";

function fakeWindow(parts: Partial<Record<"WebAssembly" | "indexedDB" | "crypto" | "fetch" | "Promise", unknown>>): Window {
  return {
    WebAssembly: { instantiate: () => undefined },
    indexedDB: {},
    crypto: { subtle: {} },
    fetch: () => undefined,
    Promise,
    ...parts,
  } as unknown as Window;
}

describe("browser support", () => {
  it("a modern browser lacks nothing", () => {
    expect(missingFeatures(fakeWindow({}))).toEqual([]);
  });

  it("names each missing feature", () => {
    expect(missingFeatures(fakeWindow({ WebAssembly: undefined }))).toEqual(["WebAssembly"]);
    expect(missingFeatures(fakeWindow({ indexedDB: undefined, crypto: {} }))).toEqual(["IndexedDB", "Web Crypto"]);
  });

  it("draws the dialog with the spec's text and browser links", () => {
    const root = document.createElement("div");
    showUnsupportedBrowser(root, ["WebAssembly"]);
    const dialog = root.querySelector("[role=alertdialog]")!;
    expect(dialog.textContent).toContain(UNSUPPORTED_TEXT);
    expect(UNSUPPORTED_TEXT).toBe("Your browser is not compatible with our website.");
    expect([...root.querySelectorAll("a")].map((a) => a.textContent)).toContain("Mozilla Firefox");
  });
});
