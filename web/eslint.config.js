// Flat config: typescript-eslint's recommended rules, the hooks rules, and the feature
// boundaries of STYLE.md ("a feature never imports another feature").
import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import { featureBoundaries } from "./eslint/feature-boundaries.js";

export default tseslint.config(
  { ignores: ["dist", "node_modules", "public", "Scripts", "sw/sw.js"] },
  {
    files: ["**/*.{ts,tsx}"],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks, portal: { rules: { "feature-boundaries": featureBoundaries } } },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      "portal/feature-boundaries": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["sw/**/*.ts", "vite.config.ts", "eslint.config.js", "eslint/**/*.js"],
    languageOptions: { globals: { ...globals.node } },
  },
);
