// ESLint's flat configuration for the browser client (make lint): the recommended rules,
// browser globals for the client's modules, Node's for its unit tests. The vendored
// library is checked by its authors, not here.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["node_modules/", "vendor/"] },
  js.configs.recommended,
  {
    files: ["app/**/*.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: globals.browser },
  },
  {
    files: ["tests/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: globals.node },
  },
];
