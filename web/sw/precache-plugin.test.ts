import { describe, expect, it } from "vitest";
import { precacheList } from "./precache-plugin";

describe("precacheList", () => {
  it("lists every built file once as a URL path, without source maps or the worker itself", () => {
    const list = precacheList([
      "index.html",
      "assets/index-Bx1.js",
      "assets/index-Bx1.js.map",
      "assets/wasm_core_bg-9f.wasm",
      "assets/index-C2.css",
      "sw.js",
      "icons\\icon-192.png",
      "manifest.webmanifest",
      "index.html",
    ]);
    expect(list).toEqual([
      "/assets/index-Bx1.js",
      "/assets/index-C2.css",
      "/assets/wasm_core_bg-9f.wasm",
      "/icons/icon-192.png",
      "/index.html",
      "/manifest.webmanifest",
    ]);
  });
});
