/**
 * The README's examples work as written: each code block is extracted from README.md and run
 * verbatim in a child process (from the repository, so `stack-auth-effect` resolves to the sources
 * through tsconfig `paths`). The Quick start is saved as `quickstart.ts` and run with `tsx
 * quickstart.ts` (what `npx tsx quickstart.ts` runs once the README's `npm install --save-dev tsx`
 * has installed it), against the emulator started by its real CLI (`src/emulator/cli.ts`, what
 * `npx stack-auth-emulator` runs once built), with the keys it printed.
 */
import type { ChildProcess } from "node:child_process"
import { spawn } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { defaults } from "../src/emulator/index.js"
import { emulatorCli } from "./support/emulatorCli.js"

const repoRoot = fileURLToPath(new URL("../", import.meta.url))
const scratch = `${repoRoot}test-output/readme-${process.pid}/`

/** The `lang` code blocks of the README section under the heading `## {title}`, in order. */
const codeBlocks = (title: string, lang = "ts"): ReadonlyArray<string> => {
  const readme = readFileSync(`${repoRoot}README.md`, "utf8")
  const start = readme.indexOf(`\n## ${title}\n`)
  if (start < 0) throw new Error(`README has no section "${title}"`)
  const end = readme.indexOf("\n## ", start + 1)
  const section = readme.slice(start, end < 0 ? undefined : end)
  return [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((match) => match[1]!)
}

/**
 * Runs TypeScript source verbatim with tsx (`tsx <dir>/<name>.ts`, the package's own tsx binary);
 * resolves with its stdout, stderr and exit code.
 */
const runTs = (name: string, source: string, env: Readonly<Record<string, string>> = {}, dir = "") => {
  mkdirSync(`${scratch}${dir}`, { recursive: true })
  const file = `${scratch}${dir}${name}.ts`
  writeFileSync(file, source)
  return new Promise<{ readonly stdout: string; readonly stderr: string; readonly code: number | null }>((resolve, reject) => {
    const child = spawn(process.execPath, [`${repoRoot}node_modules/tsx/dist/cli.mjs`, file], {
      cwd: repoRoot,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("error", reject)
    child.once("exit", (code) => resolve({ stdout, stderr, code }))
  })
}

interface RunningCli {
  readonly child: ChildProcess
  readonly printed: {
    readonly baseUrl: string
    readonly demo: { readonly projectId: string; readonly publishableClientKey: string }
    readonly demoUser: { readonly email: string; readonly password: string } | null
  }
}

const started: Array<ChildProcess> = []

/** The emulator's CLI on a free port (`--port 0` and the given flags); resolves with its JSON line. */
const startCli = (...flags: ReadonlyArray<string>) =>
  new Promise<RunningCli>((resolve, reject) => {
    const child = spawn(process.execPath, [emulatorCli(), "--port", "0", ...flags], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"]
    })
    started.push(child)
    child.stderr.resume()
    createInterface({ input: child.stdout }).once("line", (line) => resolve({ child, printed: JSON.parse(line) as RunningCli["printed"] }))
    child.once("exit", (code) => reject(new Error(`the emulator exited early with ${code}`)))
  })

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGTERM")
  rmSync(scratch, { recursive: true, force: true })
})

/** The Quick start's environment for an emulator started by the CLI: the keys it printed, and its URL. */
const quickStartEnv = (cli: RunningCli) => ({
  STACK_PROJECT_ID: cli.printed.demo.projectId,
  STACK_PUBLISHABLE_CLIENT_KEY: cli.printed.demo.publishableClientKey,
  STACK_API_URL: cli.printed.baseUrl
})

describe("README", () => {
  it("the Quick start, run verbatim against `stack-auth-emulator` (its printed keys), prints the demo user", async () => {
    const [quickStart] = codeBlocks("Quick start")
    expect(quickStart).toContain("email: \"demo@example.com\", password: \"demo-password-1234\"")
    // the shell steps, in order: the emulator, the keys it prints, tsx installed, the file run by name
    const shell = codeBlocks("Quick start", "sh").map((block) => block.trim())
    expect(shell).toEqual([
      "npx stack-auth-emulator",
      [
        `export STACK_PROJECT_ID=${defaults.demo.projectId}`,
        `export STACK_PUBLISHABLE_CLIENT_KEY=${defaults.demo.publishableClientKey}`,
        "npm install --save-dev tsx"
      ].join("\n"),
      "npx tsx quickstart.ts   # signed in as demo@example.com"
    ])
    expect(readFileSync(`${repoRoot}package.json`, "utf8")).toContain("\"stack-auth-emulator\": \"./dist/src/emulator/cli.js\"")

    const [seeded, blank] = await Promise.all([startCli(), startCli("--no-demo-user")])
    expect(seeded.printed.demoUser).toEqual({ email: "demo@example.com", password: "demo-password-1234" })
    expect(blank.printed.demoUser).toBeNull()
    const [withUser, withoutUser] = await Promise.all([
      runTs("quickstart", quickStart!, quickStartEnv(seeded), "seeded/"),
      runTs("quickstart", quickStart!, quickStartEnv(blank), "blank/")
    ])
    expect(withUser).toMatchObject({ stdout: "signed in as demo@example.com\n", code: 0 })
    // without the seeded user the same program takes its EmailPasswordMismatch branch
    expect(withoutUser).toMatchObject({ stdout: "wrong e-mail or password\n", code: 0 })
  }, 120_000)

  it("the offline-testing example runs verbatim: sign-up with HandlerUrls e-mails a verification code that verifies", async () => {
    const [example] = codeBlocks("Test your app offline with the emulator")
    expect(example).toContain("HandlerUrls.layer({ appUrl: \"http://localhost:3000\" })")
    const result = await runTs("offline-test", example!)
    expect(result).toMatchObject({ stdout: "ada@example.com verified: true\n", code: 0 })
  }, 120_000)
})
