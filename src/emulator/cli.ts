#!/usr/bin/env node
/**
 * Command line entry of the emulator: `npm run emulator -- --port 8102` listens on
 * 127.0.0.1:8102 and prints ONE JSON line
 * `{"baseUrl", "demo": {projectId, publishableClientKey, secretServerKey, superSecretAdminKey}, "internal": {…}}`,
 * then serves until SIGINT/SIGTERM.
 *
 * Flags: `--port` (default 8102; 0 = any free port), `--host` (default 127.0.0.1), `--base-url`
 * (the public origin written into token issuers and OAuth URLs, default `http://{host}:{port}`;
 * the request's `Host` header is never used), `--project-id`, `--publishable-client-key`,
 * `--secret-server-key`, `--super-secret-admin-key` (override the demo project),
 * `--access-token-lifetime` (seconds, default 600).
 *
 * @module
 */
import { Effect, Fiber } from "effect"
import type { EmulatorOptions, ProjectOptions } from "./Emulator.js"
import { serve } from "./server.js"

const usage = `Usage: stack-auth-emulator [--port 8102] [--host 127.0.0.1] [--base-url http://localhost:8102] [--project-id <uuid>]
  [--publishable-client-key pck_…] [--secret-server-key ssk_…] [--super-secret-admin-key sak_…]
  [--access-token-lifetime <seconds>]`

const flags = [
  "port",
  "host",
  "base-url",
  "project-id",
  "publishable-client-key",
  "secret-server-key",
  "super-secret-admin-key",
  "access-token-lifetime"
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
  const parsed = parseArguments(argv)
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
  const demo: ProjectOptions = {
    ...(parsed["project-id"] !== undefined ? { id: parsed["project-id"] } : {}),
    ...(parsed["publishable-client-key"] !== undefined ? { publishableClientKey: parsed["publishable-client-key"] } : {}),
    ...(parsed["secret-server-key"] !== undefined ? { secretServerKey: parsed["secret-server-key"] } : {}),
    ...(parsed["super-secret-admin-key"] !== undefined ? { superSecretAdminKey: parsed["super-secret-admin-key"] } : {})
  }
  const emulatorOptions: EmulatorOptions = { demo, ...(lifetime !== undefined ? { accessTokenLifetimeSeconds: lifetime } : {}) }

  const program = Effect.scoped(
    Effect.gen(function* () {
      const server = yield* serve({
        port,
        host: parsed.host ?? "127.0.0.1",
        ...(parsed["base-url"] !== undefined ? { baseUrl: parsed["base-url"] } : {}),
        emulatorOptions
      })
      process.stdout.write(
        `${JSON.stringify({ baseUrl: server.baseUrl, demo: server.emulator.demo, internal: server.emulator.internal })}\n`
      )
      return yield* Effect.never
    })
  ).pipe(
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
