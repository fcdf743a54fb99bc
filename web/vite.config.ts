import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";
import wasm from "vite-plugin-wasm";
import { fileURLToPath } from "node:url";
import { precachePlugin } from "./sw/precache-plugin";
import { labelEnglishPlugin } from "./vite/label-english";

// wasm-core is a wasm-pack "bundler" package: vite-plugin-wasm turns its .wasm import into an
// ES module, which needs top-level await (esnext) both in the build and in vitest.
export default defineConfig({
  // The service worker's precache list is made from the build output (sw/precache-plugin.ts).
  plugins: [wasm(), react(), labelEnglishPlugin(), precachePlugin({ template: "sw/sw.js", publicDir: "public" })],
  build: {
    target: "esnext",
    // Two pages: the app, and the pdf.js viewer page at /Scripts/pdfjs/web/viewer.html (spec 01 §2.3).
    rollupOptions: {
      input: {
        main: fileURLToPath(new URL("./index.html", import.meta.url)),
        viewer: fileURLToPath(new URL("./Scripts/pdfjs/web/viewer.html", import.meta.url)),
      },
    },
  },
  server: {
    // `npm run dev` against a locally running API (./scripts/start.sh).
    proxy: {
      "/api": process.env.PORTAL_API ?? "http://127.0.0.1:8080",
      "/magview.api": process.env.PORTAL_API ?? "http://127.0.0.1:8080",
    },
  },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}", "sw/**/*.test.ts"],
    setupFiles: ["src/test/setup.ts"],
    server: { deps: { inline: ["wasm-core", "wasm-core-settings"] } },
  },
});
