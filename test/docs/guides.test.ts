/**
 * The guides' code runs as written. A block preceded by `<!-- run: vitest -->` is a test file
 * (the testing guide's): each is saved as a `*.test.ts` file and all are run by vitest in a child
 * process, with the package's entry points by name. A block preceded by `<!-- run: tsx -->` is a
 * module run with tsx by a driver the test writes (the server guides' handlers), against the
 * emulator. A block preceded by `<!-- run: script <name> -->` is a script run as written with tsx,
 * its settings in the environment (the production guide's admin scripts), against the emulator
 * over HTTP. Blocks preceded by `<!-- run: app -->` are files of the guide's app (their first
 * line names the file): the Next.js guide's server runtime and route handler are run with
 * `next/headers` replaced by a cookie jar in memory. (Every block is also type-checked by
 * examples.test.ts.)
 */
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect, Exit, Scope } from "effect"
import { serve } from "stack-auth-effect/emulator/server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { guideFiles, root } from "./examples.js"

/** One runnable block of a guide. */
interface Runnable {
  readonly file: string
  /** 1-based line of the block's first code line. */
  readonly line: number
  readonly runner: "vitest" | "tsx" | "script" | "app"
  /** For `run: tsx <driver>`: which driver runs the block; for `run: script <name>`: the script's name. */
  readonly driver?: string
  readonly code: string
}

/** The blocks of a markdown text preceded by a `<!-- run: … -->` line. */
const runnableBlocks = (file: string, text: string): Array<Runnable> => {
  const lines = text.split("\n")
  const found: Array<Runnable> = []
  for (let i = 0; i + 1 < lines.length; i++) {
    const marker = /^<!-- run: (vitest|tsx|script|app)(?: ([\w-]+))? -->$/.exec(lines[i]!.trim())
    if (marker === null) continue
    if (!/^```(ts|tsx)$/.test(lines[i + 1]!.trim())) throw new Error(`${file}:${i + 1}: a run marker must precede a ts block`)
    let end = i + 2
    while (end < lines.length && lines[end]!.trim() !== "```") end++
    found.push({
      file,
      line: i + 3,
      runner: marker[1] as Runnable["runner"],
      ...(marker[2] === undefined ? {} : { driver: marker[2] }),
      code: lines.slice(i + 2, end).join("\n")
    })
  }
  return found
}

const blocks = guideFiles().flatMap((file) => runnableBlocks(file, fs.readFileSync(path.join(root, file), "utf8")))
const scratch = path.join(root, "test-output", `guides-${process.pid}`)
const nameOf = (block: Runnable) => `${block.file.replace(/[^A-Za-z0-9]+/g, "_")}_L${block.line}`

/** The package's entry points by name, for the child vitest (the same aliases as the repository's config). */
const vitestConfig = (include: string) =>
  `import { defineConfig } from "vitest/config"
const here = (p) => ${JSON.stringify(root)} + "/" + p
export default defineConfig({
  resolve: {
    alias: [
      { find: /^stack-auth-effect$/, replacement: here("src/index.ts") },
      { find: /^stack-auth-effect\\/react$/, replacement: here("react/index.ts") },
      { find: /^stack-auth-effect\\/next$/, replacement: here("src/next/index.ts") },
      { find: /^stack-auth-effect\\/server$/, replacement: here("src/server/index.ts") },
      { find: /^stack-auth-effect\\/emulator$/, replacement: here("src/emulator/index.ts") },
      { find: /^stack-auth-effect\\/emulator\\/server$/, replacement: here("src/emulator/server.ts") },
      { find: /^stack-auth-effect\\/emulator\\/msw$/, replacement: here("src/emulator/MswHandlers.ts") }
    ]
  },
  test: { include: [${JSON.stringify(include)}], testTimeout: 60000, hookTimeout: 60000 }
})
`

interface VitestReport {
  readonly testResults: ReadonlyArray<{
    readonly name: string
    readonly status: string
    readonly message?: string
    readonly assertionResults: ReadonlyArray<{ readonly title: string; readonly status: string; readonly failureMessages: ReadonlyArray<string> }>
  }>
}

const run = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  new Promise<{ readonly stdout: string; readonly stderr: string; readonly code: number }>((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: root, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => resolve({ stdout, stderr, code: error === null ? 0 : typeof error.code === "number" ? error.code : 1 })
    )
  })

/**
 * The program that runs a `run: tsx <driver>` block: it starts the emulator over HTTP, sets the
 * environment the guides read (`STACK_PROJECT_ID`, `STACK_SECRET_SERVER_KEY`, `STACK_API_URL`),
 * signs the demo user in with the SDK, imports the block and sends it one request with the user's
 * `Authorization` header and one without; prints `{ signedIn: [status, body], anonymous: [status] }`.
 */
const driverSource = (driver: string, blockFile: string) =>
  `import { Effect, Exit, Option, Scope } from "effect"
import { Password, Stack, Tokens } from "stack-auth-effect"
import { serve } from "stack-auth-effect/emulator/server"

const scope = Effect.runSync(Scope.make())
const running = await Effect.runPromise(Scope.provide(serve({ port: 0 }), scope))
const demo = running.emulator.demo
Object.assign(process.env, { STACK_PROJECT_ID: demo.projectId, STACK_SECRET_SERVER_KEY: demo.secretServerKey, STACK_API_URL: running.baseUrl, PORT: "0" })
const authorization = await Effect.runPromise(
  Effect.gen(function* () {
    yield* Password.signInWithPassword({ email: "demo@example.com", password: "demo-password-1234" })
    return Option.getOrThrow(yield* Tokens.getAuthorizationHeader())
  }).pipe(Effect.provide(Stack.layerClient({ projectId: demo.projectId, baseUrl: running.baseUrl, tokenStore: "memory" })))
)
const block = await import(${JSON.stringify(blockFile)})
let ask: (headers: Record<string, string>) => Promise<Response>
${
    driver === "fetch-handler"
      ? "ask = (headers) => block.handler(new Request(\"http://app.test/me\", { headers }))"
      : "await new Promise((resolve) => block.server.listening ? resolve(undefined) : block.server.once(\"listening\", resolve))\n" +
        "ask = (headers) => fetch(`http://127.0.0.1:${block.server.address().port}/me`, { headers })"
  }
const signedIn = await ask({ authorization })
const anonymous = await ask({})
console.log(JSON.stringify({ signedIn: [signedIn.status, await signedIn.json()], anonymous: [anonymous.status] }))
${driver === "fetch-handler" ? "await block.dispose()" : "block.server.close()"}
await Effect.runPromise(Scope.close(scope, Exit.void))
process.exit(0)
`

const drivers = ["fetch-handler", "node-handler"]

beforeAll(() => fs.mkdirSync(scratch, { recursive: true }))
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }))

describe("the guides' runnable blocks", () => {
  it("finds the marked blocks: the testing guide's three test files at least", () => {
    expect(blocks.filter((block) => block.runner === "vitest" && block.file === "docs/guides/testing.md")).toHaveLength(3)
    expect(runnableBlocks("x.md", ["text", "<!-- run: vitest -->", "```ts", "const a = 1", "```"].join("\n"))).toEqual([
      { file: "x.md", line: 4, runner: "vitest", code: "const a = 1" }
    ])
  })

  it("every `run: tsx` block names a driver this test has", () => {
    const tsx = blocks.filter((block) => block.runner === "tsx")
    expect(tsx.map((block) => block.driver).sort()).toEqual(expect.arrayContaining(drivers))
    for (const block of tsx) expect(drivers, `${block.file}:${block.line}`).toContain(block.driver)
  })

  for (const block of blocks.filter((candidate) => candidate.runner === "tsx")) {
    it(`${block.file}:${block.line} (${block.driver}) admits the signed-in demo user and refuses a request without tokens`, async () => {
      const dir = path.join(scratch, nameOf(block))
      fs.mkdirSync(dir, { recursive: true })
      const blockFile = path.join(dir, "block.ts")
      fs.writeFileSync(blockFile, block.code)
      fs.writeFileSync(path.join(dir, "driver.ts"), driverSource(block.driver!, blockFile))
      const result = await run([path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), path.join(dir, "driver.ts")])
      expect(result.code, result.stderr).toBe(0)
      const printed = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as { signedIn: [number, { id: string; email: string }]; anonymous: [number] }
      expect(printed.signedIn).toEqual([200, { id: expect.any(String), email: "demo@example.com" }])
      expect(printed.anonymous).toEqual([401])
    }, 120_000)
  }

  it("production.md: the readiness script fails on the demo project (localhost allowed), the trust-domain script fixes it", async () => {
    const script = (name: string) => {
      const block = blocks.find((candidate) => candidate.runner === "script" && candidate.driver === name && candidate.file === "docs/guides/production.md")
      if (block === undefined) throw new Error(`docs/guides/production.md has no script ${name}`)
      const file = path.join(scratch, `production-${name}.ts`)
      fs.writeFileSync(file, block.code)
      return file
    }
    const scope = Effect.runSync(Scope.make())
    try {
      const running = await Effect.runPromise(Scope.provide(serve({ port: 0 }), scope))
      const env = {
        STACK_PROJECT_ID: running.emulator.demo.projectId,
        STACK_SUPER_SECRET_ADMIN_KEY: running.emulator.demo.superSecretAdminKey,
        STACK_API_URL: running.baseUrl
      }
      const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs")
      const before = await run([tsx, script("readiness")], env)
      expect(before.code, before.stderr).toBe(1)
      expect(before.stderr).toMatch(/localhost/i)
      const trust = await run([tsx, script("trust-domain")], env)
      expect(trust.code, trust.stderr).toBe(0)
      const after = await run([tsx, script("readiness")], env)
      expect(after, after.stderr).toMatchObject({ code: 0, stderr: "" })
    } finally {
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }, 180_000)

  it("nextjs.md: the route handler answers 401 signed out, and the user behind an x-stack-auth header or Next's cookies", async () => {
    const dir = path.join(scratch, "nextjs")
    for (const block of blocks.filter((candidate) => candidate.runner === "app" && candidate.file === "docs/guides/nextjs.md")) {
      const file = path.join(dir, "app", /^\/\/ (\S+)/.exec(block.code)![1]!)
      fs.mkdirSync(path.dirname(file), { recursive: true })
      fs.writeFileSync(file, block.code)
    }
    expect(fs.existsSync(path.join(dir, "app", "lib", "stack-server.ts"))).toBe(true)
    expect(fs.existsSync(path.join(dir, "app", "app", "api", "me", "route.ts"))).toBe(true)
    // Next's cookies() for one visitor: a jar in memory, with the shape next/headers gives
    fs.writeFileSync(
      path.join(dir, "next-headers.ts"),
      `export const jar = new Map<string, string>()
export async function cookies() {
  return {
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name)! } : undefined),
    getAll: () => [...jar].map(([name, value]) => ({ name, value })),
    has: (name: string) => jar.has(name),
    set: (name: string, value: string) => void jar.set(name, value),
    delete: (name: string) => void jar.delete(name)
  }
}
`
    )
    const entries = {
      "stack-auth-effect": "src/index.ts",
      "stack-auth-effect/next": "src/next/index.ts",
      "stack-auth-effect/server": "src/server/index.ts",
      "stack-auth-effect/emulator/server": "src/emulator/server.ts"
    }
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "ESNext",
          moduleResolution: "Bundler",
          target: "ES2022",
          strict: true,
          paths: {
            ...Object.fromEntries(Object.entries(entries).map(([name, file]) => [name, [path.join(root, file)]])),
            "next/headers": [path.join(dir, "next-headers.ts")],
            "@/*": [path.join(dir, "app", "*")]
          }
        }
      })
    )
    fs.writeFileSync(
      path.join(dir, "driver.ts"),
      `import { Effect, Exit, Layer, Scope } from "effect"
import { Password, Stack, Tokens } from "stack-auth-effect"
import { serve } from "stack-auth-effect/emulator/server"
import { CookieTokenStore } from "stack-auth-effect/next"
import { cookies, jar } from "next/headers"

const scope = Effect.runSync(Scope.make())
const running = await Effect.runPromise(Scope.provide(serve({ port: 0 }), scope))
const demo = running.emulator.demo
Object.assign(process.env, {
  NEXT_PUBLIC_STACK_PROJECT_ID: demo.projectId,
  NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: demo.publishableClientKey,
  STACK_SECRET_SERVER_KEY: demo.secretServerKey,
  NEXT_PUBLIC_STACK_API_URL: running.baseUrl
})
const { GET } = await import("@/app/api/me/route")
const answer = async (response: Response) => [response.status, await response.json()]
const url = "http://localhost:3000/api/me"
const signIn = Password.signInWithPassword({ email: "demo@example.com", password: "demo-password-1234" })
const client = Stack.layerClient({ projectId: demo.projectId, baseUrl: running.baseUrl, tokenStore: "memory" })

const signedOut = await answer(await GET(new Request(url)))
// the browser's code hands its tokens over in the x-stack-auth header
const headers = await Effect.runPromise(Effect.andThen(signIn, Tokens.getAuthHeaders()).pipe(Effect.provide(client)))
const byHeader = await answer(await GET(new Request(url, { headers })))
// a sign-in that wrote the SDK's cookies into the jar (as the browser's cookies would arrive)
const session = CookieTokenStore.layerSession(await cookies(), { projectId: demo.projectId, secure: false })
await Effect.runPromise(signIn.pipe(Effect.provide(Layer.provideMerge(session, Stack.layerClient({ projectId: demo.projectId, baseUrl: running.baseUrl })))))
const cookieNames = [...jar.keys()].sort()
const byCookies = await answer(await GET(new Request(url)))
console.log(JSON.stringify({ signedOut, byHeader, byCookies, cookieNames }))
await Effect.runPromise(Scope.close(scope, Exit.void))
process.exit(0)
`
    )
    const result = await run([
      path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
      "--tsconfig",
      path.join(dir, "tsconfig.json"),
      path.join(dir, "driver.ts")
    ])
    expect(result.code, result.stderr).toBe(0)
    const printed = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as Record<string, unknown>
    const signedIn = [200, { signedIn: true, id: expect.any(String), displayName: expect.anything(), primaryEmail: "demo@example.com" }]
    expect(printed).toEqual({
      signedOut: [401, { signedIn: false }],
      byHeader: signedIn,
      byCookies: signedIn,
      cookieNames: expect.arrayContaining(["stack-access", expect.stringMatching(/^stack-refresh-/)])
    })
  }, 180_000)

  it("every `run: vitest` block passes as a vitest test file", async () => {
    const dir = path.join(scratch, "vitest")
    fs.mkdirSync(dir, { recursive: true })
    const tests = blocks.filter((block) => block.runner === "vitest")
    for (const block of tests) fs.writeFileSync(path.join(dir, `${nameOf(block)}.test.ts`), block.code)
    const config = path.join(dir, "vitest.config.mjs")
    fs.writeFileSync(config, vitestConfig(`${path.relative(root, dir)}/*.test.ts`))
    const report = path.join(dir, "report.json")
    const result = await run([path.join(root, "node_modules", "vitest", "vitest.mjs"), "run", "--config", config, "--reporter=json", `--outputFile=${report}`])
    expect(fs.existsSync(report), result.stderr).toBe(true)
    const { testResults } = JSON.parse(fs.readFileSync(report, "utf8")) as VitestReport
    const outcome = tests.map((block) => {
      const file = testResults.find((entry) => path.basename(entry.name) === `${nameOf(block)}.test.ts`)
      const failures = file?.assertionResults.filter((test) => test.status !== "passed").map((test) => `${test.title}: ${test.failureMessages.join(" ")}`) ?? []
      return { block: `${block.file}:${block.line}`, status: file?.status, tests: file?.assertionResults.length ?? 0, failures, message: file?.message ?? "" }
    })
    for (const entry of outcome) {
      expect(entry, JSON.stringify(entry)).toMatchObject({ status: "passed", failures: [] })
      expect(entry.tests).toBeGreaterThan(0)
    }
  }, 240_000)
})
