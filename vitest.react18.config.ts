/**
 * The React hook tests again, against React 18: `react` and `react-dom` resolve to the copy that
 * `scripts/react18.mjs` installs in test/react18/node_modules (a nested package, so the root
 * install keeps React 19 and its peer dependencies untouched). Run with `npm run test:react18`
 * (also run after `npm test`).
 */
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const react18 = fileURLToPath(new URL("./test/react18/node_modules/", import.meta.url))
// testing-library's ES module build, processed by vite so that its `react-dom/client` import is aliased too
const testingLibrary = fileURLToPath(
  new URL("./node_modules/@testing-library/react/dist/@testing-library/react.esm.js", import.meta.url)
)

export default defineConfig({
  esbuild: { jsx: "automatic" },
  resolve: {
    alias: [
      { find: /^@testing-library\/react$/, replacement: testingLibrary },
      { find: /^react$/, replacement: `${react18}react/index.js` },
      { find: /^react\/(.*?)(\.js)?$/, replacement: `${react18}react/$1.js` },
      { find: /^react-dom$/, replacement: `${react18}react-dom/index.js` },
      { find: /^react-dom\/(.*?)(\.js)?$/, replacement: `${react18}react-dom/$1.js` }
    ]
  },
  test: {
    name: "react18",
    include: ["test/react/**/*.test.tsx"],
    // as the main config's isolated files: a worker thread per file (cheaper than a process), both
    // cores (vitest's default is one fewer than the cores: one worker on a 2-core machine)
    pool: "threads",
    maxWorkers: 2,
    minWorkers: 1,
    // generous: only a loaded machine makes a test or hook take this long
    testTimeout: 60_000,
    hookTimeout: 120_000,
    server: { deps: { inline: [/@testing-library\/react/] } }
  }
})
