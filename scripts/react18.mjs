#!/usr/bin/env node
/**
 * Runs the React hook tests (test/react) against React 18 as well: installs React 18 into the
 * nested package test/react18 when it is missing (its own lock file; the root install keeps React
 * 19 and needs no flags), then runs vitest with vitest.react18.config.ts, which aliases `react` and
 * `react-dom` there. `npm test` runs this afterwards (`posttest`); `npm run test:react18` alone.
 */
import { spawnSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const harness = join(root, "test", "react18")
const npm = process.platform === "win32" ? "npm.cmd" : "npm"
const npx = process.platform === "win32" ? "npx.cmd" : "npx"

const installedVersion = (name) => {
  const file = join(harness, "node_modules", name, "package.json")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).version : undefined
}

const wanted = JSON.parse(readFileSync(join(harness, "package.json"), "utf8")).dependencies
if (installedVersion("react") !== wanted.react || installedVersion("react-dom") !== wanted["react-dom"]) {
  console.log("Installing React 18 for the hook tests in test/react18 …")
  const install = spawnSync(npm, ["ci", "--no-audit", "--no-fund"], { cwd: harness, stdio: "inherit" })
  if (install.status !== 0) process.exit(install.status ?? 1)
}

const run = spawnSync(
  npx,
  [
    "vitest",
    "run",
    "-c",
    "vitest.react18.config.ts",
    "--reporter=default",
    "--reporter=json",
    "--outputFile.json=test-output/vitest-react18.json",
    ...process.argv.slice(2)
  ],
  { cwd: root, stdio: "inherit" }
)
process.exit(run.status ?? 1)
