#!/usr/bin/env node
/**
 * Smoke test of the built package on the runtime users have: the package keeps `engines.node >=20`
 * while development and the test suite run on the Node 22 the repository installs for itself (the
 * `node` devDependency). This packs `dist` as published (`npm pack`; run `npm run build` first:
 * `npm run smoke` does both), into a fresh temporary folder installs `effect` as a new user does
 * (`npm install effect`: the registry's latest), then the tarball, refusing any peer or engine
 * warning of either step, starts the packed
 * emulator (`npx stack-auth-emulator --port 0`, its JSON line gives the URL and the demo keys) and
 * runs the README's Quick start program on the system Node, expecting `signed in as demo@example.com`.
 *
 * The Node under test is `$SMOKE_NODE`, else `/usr/bin/node` (the system Node, 20 on CI), else the
 * Node running this script; its directory goes first on the PATH of every step (npm, npx, the
 * emulator), and the script says which version it used (and when that is not Node 20).
 * The Quick start is read from README.md (its first `ts`/`tsx`/`js`/`mjs` block importing
 * `stack-auth-effect`) and saved as `quickstart.mjs`, TypeScript syntax stripped by esbuild.
 * `SMOKE_KEEP=1` keeps the temporary folder.
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { delimiter, dirname, join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const expected = "signed in as demo@example.com"
const say = (line) => console.log(`smoke: ${line}`)
const fail = (line) => {
  console.error(`smoke: FAILED: ${line}`)
  process.exit(1)
}

// ---- the README's Quick start, as plain JavaScript

/**
 * The README's Quick start program: the first `ts`/`tsx`/`js`/`mjs` code block of the section
 * `## Quick start` that imports `stack-auth-effect`, with its language.
 */
export const quickStartBlock = (readme) => {
  const start = readme.indexOf("\n## Quick start\n")
  if (start < 0) throw new Error("README.md has no section `## Quick start`")
  const end = readme.indexOf("\n## ", start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  const block = [...section.matchAll(/```(ts|tsx|js|mjs)\n([\s\S]*?)```/g)].find((match) => match[2].includes("from \"stack-auth-effect\""))
  if (block === undefined) throw new Error("README.md's Quick start has no code block importing stack-auth-effect")
  return { lang: block[1], source: block[2] }
}

/** A code block as a plain ES module for Node 20: TypeScript syntax stripped by esbuild. */
export const toJavaScript = async ({ lang, source }) => {
  if (lang === "js" || lang === "mjs") return source
  const esbuild = await import("esbuild")
  const { code } = await esbuild.transform(source, { loader: lang, format: "esm", jsx: "automatic", target: "node20" })
  return code
}

const main = async () => {
  const started = Date.now()
  // ---- the Node under test
  const node = process.env.SMOKE_NODE ?? (existsSync("/usr/bin/node") ? "/usr/bin/node" : process.execPath)
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout?.trim()
  if (!version) fail(`${node} does not run`)
  say(`Node ${version} (${node})${version.startsWith("v20.") ? "" : `: not Node 20, the smoke test ran on ${version}`}`)
  const env = { ...process.env, PATH: [dirname(node), process.env.PATH ?? ""].join(delimiter) }

  /** Runs a command to completion with the Node under test first on PATH; its stdout and stderr. */
  const run = (command, args, cwd) => {
    const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 120_000 })
    if (result.status !== 0) fail(`${command} ${args.join(" ")} exited with ${result.status ?? result.signal}\n${result.stdout}${result.stderr}`)
    return { stdout: result.stdout, stderr: result.stderr }
  }

  const program = await toJavaScript(quickStartBlock(readFileSync(join(root, "README.md"), "utf8")))

  // ---- the package as published, in a fresh folder with its peers
  if (!existsSync(join(root, "dist/src/index.js")) || !existsSync(join(root, "dist/src/emulator/cli.js"))) {
    fail("no built package in dist/: run `npm run build` first (or `npm run smoke`)")
  }
  // the app's own effect first, as the README's Install says (`npm install effect`: the latest)
  const peers = ["effect"]

  const folder = mkdtempSync(join(tmpdir(), "stack-auth-effect-smoke-"))
  let emulator
  const cleanUp = () => {
    // the emulator runs in a process group of its own (npx, its shell, node): stop all of it
    if (emulator !== undefined && emulator.exitCode === null) {
      try {
        process.kill(-emulator.pid, "SIGTERM")
      } catch {
        // already gone
      }
    }
    if (process.env.SMOKE_KEEP === "1") say(`kept ${folder}`)
    else rmSync(folder, { recursive: true, force: true })
  }
  process.on("exit", cleanUp)

  // `dist` is already built: pack it without running `prepack` (the build) again
  const packed = JSON.parse(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", folder], root).stdout)
  const tarball = join(folder, packed[0].filename)
  say(`packed ${packed[0].filename} (${packed[0].entryCount} files); installing ${peers.join(", ")}, then the tarball`)

  writeFileSync(join(folder, "package.json"), `${JSON.stringify({ name: "smoke", private: true, type: "module" }, null, 2)}\n`)
  for (const step of [peers, [tarball]]) {
    const install = run("npm", ["install", "--no-audit", "--no-fund", ...step], folder)
    const peerWarnings = `${install.stdout}${install.stderr}`.split("\n").filter((line) => /ERESOLVE|peer dep|EBADENGINE/i.test(line))
    if (peerWarnings.length > 0) fail(`npm install ${step.join(" ")} warned:\n${peerWarnings.join("\n")}`)
  }
  const installed = JSON.parse(readFileSync(join(folder, "node_modules", "effect", "package.json"), "utf8")).version
  say(`installed effect ${installed}`)

  // ---- the packed emulator, as the README starts it
  const printed = await new Promise((resolve, reject) => {
    emulator = spawn("npx", ["stack-auth-emulator", "--port", "0"], { cwd: folder, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    let stderr = ""
    emulator.stderr.on("data", (chunk) => (stderr += chunk))
    const timer = setTimeout(() => reject(new Error(`the emulator printed no JSON line in 30 s\n${stderr}`)), 30_000)
    createInterface({ input: emulator.stdout }).once("line", (line) => {
      clearTimeout(timer)
      try {
        resolve(JSON.parse(line))
      } catch {
        reject(new Error(`the emulator's first line is not JSON: ${line}\n${stderr}`))
      }
    })
    emulator.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`the emulator exited with ${code}\n${stderr}`))
    })
  }).catch((error) => fail(error.message))
  say(`emulator on ${printed.baseUrl}`)

  // ---- the Quick start, on the Node under test
  writeFileSync(join(folder, "quickstart.mjs"), program)
  const quick = spawnSync(node, ["quickstart.mjs"], {
    cwd: folder,
    encoding: "utf8",
    timeout: 60_000,
    env: {
      ...env,
      STACK_PROJECT_ID: printed.demo.projectId,
      STACK_PUBLISHABLE_CLIENT_KEY: printed.demo.publishableClientKey,
      STACK_API_URL: printed.baseUrl
    }
  })
  if (quick.status !== 0 || quick.stdout.trim() !== expected) {
    fail(
      `the Quick start on ${version} exited with ${quick.status ?? quick.signal}, printed ${JSON.stringify(quick.stdout)}, expected ${
        JSON.stringify(expected)
      }\n${quick.stderr}`
    )
  }
  say(`the Quick start on Node ${version} printed "${quick.stdout.trim()}" (${((Date.now() - started) / 1000).toFixed(1)} s)`)
  // the emulator's pipes would keep this process waiting: stop it (the exit handler) and end
  process.exit(0)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await main().catch((error) => fail(error instanceof Error ? error.message : String(error)))
}
