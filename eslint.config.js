/**
 * The linter and the formatter (`npm run lint` checks, `npm run format` writes; `npm test` runs
 * the check after the type check): ESLint's and typescript-eslint's recommended rules, and the
 * formatting of Effect's own repositories, dprint's TypeScript formatter run as the rule
 * `@effect/dprint` of `@effect/eslint-plugin` (it ships dprint's plugin as a wasm file: nothing
 * is downloaded). Its settings follow this repository's style: 2 spaces, no semicolons, double
 * quotes, no trailing commas, lines up to 160 characters, imports in the order written.
 *
 * Rules turned off are checked elsewhere or would flag what the code does on purpose (see each).
 *
 * @module
 */
import js from "@eslint/js"
import effect from "@effect/eslint-plugin"
import globals from "globals"
import tseslint from "typescript-eslint"

/** dprint's TypeScript settings (https://dprint.dev/plugins/typescript/config/). */
export const dprintConfig = {
  indentWidth: 2,
  lineWidth: 160,
  semiColons: "asi",
  quoteStyle: "alwaysDouble",
  trailingCommas: "never",
  operatorPosition: "maintain",
  "arrowFunction.useParentheses": "force",
  "functionExpression.spaceAfterFunctionKeyword": true,
  "module.sortImportDeclarations": "maintain",
  "module.sortExportDeclarations": "maintain"
}

export default tseslint.config(
  { ignores: ["**/node_modules/", "dist/", "coverage/", "test-output/", ".tmp/", "docs/api/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: { ...globals.node } },
    plugins: { "@effect": effect },
    rules: {
      "@effect/dprint": ["error", { config: dprintConfig }],
      // `tsc` checks unused locals and parameters (noUnusedLocals, noUnusedParameters); the type
      // tests keep values used only in `typeof`, which tsc counts as used and this rule does not
      "@typescript-eslint/no-unused-vars": "off",
      // `any` and `{}` are where the type-level code needs them (the endpoint definitions' generic
      // plumbing, `Record<never, never>`-like defaults); `tsc --strict` checks the rest
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-empty-object-type": "off",
      // the JWT and URL checks reject control characters with a regular expression on purpose
      "no-control-regex": "off",
      // `const self = this` for the `Effect.gen(function* () { … })` of a class's method
      "@typescript-eslint/no-this-alias": ["error", { allowedNames: ["self"] }],
      "@typescript-eslint/no-unused-expressions": ["error", { allowShortCircuit: true }],
      "@typescript-eslint/array-type": ["error", { default: "generic", readonly: "generic" }]
    }
  },
  {
    // in TSX a generic arrow function needs its trailing comma (`<A,>(a: A) => …`, else JSX);
    // with "never" dprint drops it and breaks the file: "onlyMultiLine" keeps it
    files: ["**/*.tsx"],
    rules: { "@effect/dprint": ["error", { config: { ...dprintConfig, "typeParameters.trailingCommas": "onlyMultiLine" } }] }
  }
)
