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
 * Other flags (read by `CommandLine.ts` with `node:util` `parseArgs`): `--port` (default 8102;
 * 0 = any free port; a port in use exits 1 with a line saying so and how to pick another),
 * `--host` (default 127.0.0.1), `--base-url` (the public origin written into token issuers and
 * OAuth URLs, default `http://{host}:{port}`; the request's `Host` header never builds a URL),
 * `--allowed-host <name>` (repeatable: a host name requests may be addressed to besides the base
 * URL's, localhost, `*.localhost` and IP addresses; any other `Host` is answered 403), `--project-id`,
 * `--publishable-client-key`, `--secret-server-key`, `--super-secret-admin-key` (override the
 * demo project), `--access-token-lifetime` (seconds, default 600, the production service's; the
 * development service issues 60 s tokens), `--chaos-rate-limit <rate>` (0–1: that share of API
 * requests is answered 429 without a known error, half with `Retry-After`, as the development
 * service does; default off) and `--chaos-seed <integer>` (a fixed sequence of those 429s).
 * The service's own test switches, under the environment variable names the service reads (the
 * flags win): `--oauth-mock-url <url>` / `STACK_OAUTH_MOCK_URL` (every OAuth provider's calls go
 * to that OpenID Connect server, `ExternalOAuthProvider.ts`) and `--hardcoded-passkey-challenge` /
 * `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING` (any non-empty value: every passkey
 * challenge is `MOCK`).
 *
 * @module
 */
import { Effect, Fiber, Logger } from "effect"
import { listenFailureText, parseCommandLine, usage } from "./CommandLine.js"
import { describeDemoSeed } from "./DemoFlags.js"
import { serve } from "./server.js"

const main = (argv: ReadonlyArray<string>) => {
  const command = parseCommandLine(argv, process.env)
  if (command._tag === "Help") {
    process.stdout.write(`${usage}\n`)
    return
  }
  if (command._tag === "Invalid") {
    process.stderr.write(`${command.message}\n${usage}\n`)
    process.exitCode = 2
    return
  }

  const program = Effect.scoped(
    Effect.gen(function* () {
      const server = yield* serve({
        port: command.port,
        host: command.host,
        ...(command.baseUrl !== undefined ? { baseUrl: command.baseUrl } : {}),
        allowedHosts: command.allowedHosts,
        emulatorOptions: command.emulatorOptions
      })
      const seed = server.emulator.demoSeed
      process.stdout.write(
        `${
          JSON.stringify({
            baseUrl: server.baseUrl,
            demo: server.emulator.demo,
            demoUser: seed.user === undefined ? null : { email: seed.user.email, password: seed.user.password },
            demoConfig: { ...seed.config, trustedDomains: seed.trustedDomains },
            internal: server.emulator.internal
          })
        }\n`
      )
      process.stderr.write(
        [
          `Stack Auth emulator on ${server.baseUrl}  (project ${server.emulator.demo.projectId}; --help lists the flags)`,
          ...describeDemoSeed(seed),
          ...(server.emulator.settings.oauthMockUrl !== undefined
            ? [`OAuth providers: the OpenID Connect server at ${server.emulator.settings.oauthMockUrl} (STACK_OAUTH_MOCK_URL)`]
            : []),
          ...(server.emulator.settings.hardcodedPasskeyChallenge === true ? ["Passkey challenges: always MOCK (hard-coded for tests)"] : [])
        ]
          .map((line) => `  ${line}`)
          .join("\n") + "\n"
      )
      return yield* Effect.never
    })
  ).pipe(
    // the log (e.g. the hint for a refused callback URL) goes to stderr: stdout holds the JSON line
    Effect.provide(Logger.layer([Logger.withConsoleError(Logger.formatSimple)])),
    Effect.catch((error) =>
      Effect.sync(() => {
        // a port in use (EADDRINUSE) says which flag picks another
        process.stderr.write(`${error._tag === "ServeError" ? listenFailureText(error, command.port, command.host) : error.message}\n`)
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
