#!/usr/bin/env node
/**
 * Command line entry of the emulator: `npx stack-auth-emulator --port 8102` (or `npm run emulator`)
 * listens on 127.0.0.1:8102 and prints ONE JSON line on stdout
 * `{"baseUrl", "demo": {projectId, publishableClientKey, secretServerKey, superSecretAdminKey},
 * "demoUser": {email, password} | null, "demoConfig": {…switches, trustedDomains}, "internal": {…}}`,
 * a human-readable summary on stderr (the demo user, the switches, the trusted domains), then
 * serves until SIGINT/SIGTERM. Its log (e.g. why a callback URL was refused) goes to stderr.
 *
 * The demo project is the one of `Emulator.make()`: the demo user `demo@example.com` /
 * `demo-password-1234` and every switch of `defaults.demoConfig` on; the demo flags of
 * `DemoFlags.ts` change them (`--demo-user email:password`, `--no-demo-user`, `--blank`,
 * `--no-client-team-creation`…, `--trusted-domain https://app.example.com`).
 *
 * Other flags: `--port` (default 8102; 0 = any free port), `--host` (default 127.0.0.1),
 * `--base-url` (the public origin written into token issuers and OAuth URLs, default
 * `http://{host}:{port}`; the request's `Host` header is never used), `--project-id`,
 * `--publishable-client-key`, `--secret-server-key`, `--super-secret-admin-key` (override the
 * demo project), `--access-token-lifetime` (seconds, default 600, the production service's; the
 * development service issues 60 s tokens), `--chaos-rate-limit <rate>` (0–1: that share of API
 * requests is answered 429 without a known error, half with `Retry-After`, as the development
 * service does; default off) and `--chaos-seed <integer>` (a fixed sequence of those 429s).
 *
 * @module
 */
import { Effect, Fiber, Logger } from "effect"
import { demoFlagsUsage, describeDemoSeed, parseDemoFlags } from "./DemoFlags.js"
import type { DemoProjectOptions, EmulatorOptions } from "./Emulator.js"
import { serve } from "./server.js"

const usage = `Usage: stack-auth-emulator [--port 8102] [--host 127.0.0.1] [--base-url http://localhost:8102] [--project-id <uuid>]
  [--publishable-client-key pck_…] [--secret-server-key ssk_…] [--super-secret-admin-key sak_…]
  [--access-token-lifetime <seconds>] [--chaos-rate-limit <0..1>] [--chaos-seed <integer>] [demo flags]
${demoFlagsUsage}`

const flags = [
  "port",
  "host",
  "base-url",
  "project-id",
  "publishable-client-key",
  "secret-server-key",
  "super-secret-admin-key",
  "access-token-lifetime",
  "chaos-rate-limit",
  "chaos-seed"
] as const

type Flag = (typeof flags)[number]

/** Parses the command line (`--name value` or `--name=value`). */
const parseArguments = (argv: ReadonlyArray<string>): Partial<Record<Flag, string>> | { readonly error: string } => {
  const parsed: Partial<Record<Flag, string>> = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "--help" || arg === "-h") return { error: usage }
    if (!arg.startsWith("--")) return { error: `Unexpected argument "${arg}".\n${usage}` }
    const [name, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined]
    if (!(flags as ReadonlyArray<string>).includes(name)) return { error: `Unknown flag "--${name}".\n${usage}` }
    const value = inline ?? argv[++i]
    if (value === undefined) return { error: `Flag "--${name}" needs a value.\n${usage}` }
    parsed[name as Flag] = value
  }
  return parsed
}

const main = (argv: ReadonlyArray<string>) => {
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${usage}\n`)
    return
  }
  const demoFlags = parseDemoFlags(argv)
  if ("error" in demoFlags) {
    process.stderr.write(`${demoFlags.error}\n${usage}\n`)
    process.exitCode = 2
    return
  }
  const parsed = parseArguments(demoFlags.rest)
  if ("error" in parsed) {
    process.stderr.write(`${parsed.error}\n`)
    process.exitCode = 2
    return
  }
  const port = Number(parsed.port ?? "8102")
  const lifetime = parsed["access-token-lifetime"] === undefined ? undefined : Number(parsed["access-token-lifetime"])
  if (!Number.isInteger(port) || port < 0 || port > 65535 || (lifetime !== undefined && !(Number.isInteger(lifetime) && lifetime > 0))) {
    process.stderr.write(`Invalid --port or --access-token-lifetime.\n${usage}\n`)
    process.exitCode = 2
    return
  }
  const demo: DemoProjectOptions = {
    ...demoFlags.demo,
    ...(parsed["project-id"] !== undefined ? { id: parsed["project-id"] } : {}),
    ...(parsed["publishable-client-key"] !== undefined ? { publishableClientKey: parsed["publishable-client-key"] } : {}),
    ...(parsed["secret-server-key"] !== undefined ? { secretServerKey: parsed["secret-server-key"] } : {}),
    ...(parsed["super-secret-admin-key"] !== undefined ? { superSecretAdminKey: parsed["super-secret-admin-key"] } : {})
  }
  const chaosRate = parsed["chaos-rate-limit"] === undefined ? undefined : Number(parsed["chaos-rate-limit"])
  const chaosSeed = parsed["chaos-seed"] === undefined ? undefined : Number(parsed["chaos-seed"])
  if ((chaosRate !== undefined && !(chaosRate >= 0 && chaosRate <= 1)) || (chaosSeed !== undefined && !Number.isSafeInteger(chaosSeed))) {
    process.stderr.write(`Invalid --chaos-rate-limit (0 to 1) or --chaos-seed (an integer).\n${usage}\n`)
    process.exitCode = 2
    return
  }
  const emulatorOptions: EmulatorOptions = {
    demo,
    ...(lifetime !== undefined ? { accessTokenLifetimeSeconds: lifetime } : {}),
    ...(chaosRate !== undefined ? { chaosRateLimit: { rate: chaosRate, ...(chaosSeed !== undefined ? { seed: chaosSeed } : {}) } } : {})
  }

  const program = Effect.scoped(
    Effect.gen(function* () {
      const server = yield* serve({
        port,
        host: parsed.host ?? "127.0.0.1",
        ...(parsed["base-url"] !== undefined ? { baseUrl: parsed["base-url"] } : {}),
        emulatorOptions
      })
      const seed = server.emulator.demoSeed
      process.stdout.write(
        `${JSON.stringify({
          baseUrl: server.baseUrl,
          demo: server.emulator.demo,
          demoUser: seed.user === undefined ? null : { email: seed.user.email, password: seed.user.password },
          demoConfig: { ...seed.config, trustedDomains: seed.trustedDomains },
          internal: server.emulator.internal
        })}\n`
      )
      process.stderr.write(
        [`Stack Auth emulator on ${server.baseUrl}  (project ${server.emulator.demo.projectId}; --help lists the flags)`, ...describeDemoSeed(seed)]
          .map((line) => `  ${line}`)
          .join("\n") + "\n"
      )
      return yield* Effect.never
    })
  ).pipe(
    // the log (e.g. the hint for a refused callback URL) goes to stderr: stdout holds the JSON line
    Effect.provide(Logger.replace(Logger.defaultLogger, Logger.withConsoleError(Logger.stringLogger))),
    Effect.catchAll((error) =>
      Effect.sync(() => {
        process.stderr.write(`${error.message}\n`)
        process.exitCode = 1
      })
    )
  )
  const fiber = Effect.runFork(program)
  const stop = () => {
    Effect.runFork(Fiber.interrupt(fiber))
  }
  process.once("SIGINT", stop)
  process.once("SIGTERM", stop)
}

main(process.argv.slice(2))
