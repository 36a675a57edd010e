// ESLint for the browser's scripts: plain ES modules, no bundler, run in the browser.
// `npx eslint src/pasyans/server/static/js` (.ci/run). The recommended rules, plus a few
// that catch real mistakes in this code base; style (and prefer-const) is not checked here.
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    ignores: ["node_modules/**", "tests/e2e/.npm/**", "tests/e2e/vendor/**"],
  },
  js.configs.recommended,
  {
    files: ["src/pasyans/server/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-var": "error",
    },
  },
];
