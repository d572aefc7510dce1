/**
 * The emulator's command line (`stack-auth-emulator`, read by `CommandLine.ts` with `node:util`
 * `parseArgs`): every documented flag reaches `serve`, a wrong one is refused with the reason
 * (exit 2 with the usage), and a port in use ends with a line saying how to pick another
 * (issue 24 item 6) instead of the system's EADDRINUSE.
 */
import * as net from "node:net"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { parseCommandLine, usage } from "../../src/emulator/CommandLine.js"
import * as Emulator from "../../src/emulator/Emulator.js"
import { runCli } from "./helpers.js"

describe("the command line", () => {
  it("no flag: port 8102 on 127.0.0.1, the default demo", () => {
    expect(parseCommandLine([])).toEqual({
      _tag: "Serve",
      port: 8102,
      host: "127.0.0.1",
      baseUrl: undefined,
      allowedHosts: [],
      emulatorOptions: { demo: {} }
    })
  })

  it("every documented flag, as `--name value` or `--name=value`, reaches the server's options", () => {
    const command = parseCommandLine([
      "--port",
      "0",
      "--host=0.0.0.0",
      "--base-url",
      "http://emulator.test:8102",
      "--allowed-host",
      "emulator",
      "--allowed-host=api.emulator.test",
      "--project-id",
      "6fbbf22e-f4b2-4c6e-95a1-beab6fa41063",
      "--publishable-client-key=pck_a",
      "--secret-server-key",
      "ssk_b",
      "--super-secret-admin-key",
      "sak_c",
      "--access-token-lifetime",
      "60",
      "--chaos-rate-limit",
      "0.25",
      "--chaos-seed=-7",
      "--blank",
      "--magic-link",
      "--trusted-domain",
      "https://app.example.com"
    ])
    expect(command).toEqual({
      _tag: "Serve",
      port: 0,
      host: "0.0.0.0",
      baseUrl: "http://emulator.test:8102",
      allowedHosts: ["emulator", "api.emulator.test"],
      emulatorOptions: {
        demo: {
          user: false,
          // later demo flags apply on top of --blank, in command-line order
          config: { ...Emulator.blankDemo.config, magicLinkEnabled: true, domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] },
          id: "6fbbf22e-f4b2-4c6e-95a1-beab6fa41063",
          publishableClientKey: "pck_a",
          secretServerKey: "ssk_b",
          superSecretAdminKey: "sak_c"
        },
        accessTokenLifetimeSeconds: 60,
        chaosRateLimit: { rate: 0.25, seed: -7 }
      }
    })
  })

  it("--help or -h anywhere asks for the usage, which names every flag", () => {
    expect(parseCommandLine(["--port", "1", "--help"])).toEqual({ _tag: "Help" })
    expect(parseCommandLine(["-h", "--nope"])).toEqual({ _tag: "Help" })
    for (
      const flag of [
        "--port",
        "--host",
        "--base-url",
        "--allowed-host",
        "--project-id",
        "--publishable-client-key",
        "--secret-server-key",
        "--super-secret-admin-key",
        "--access-token-lifetime",
        "--chaos-rate-limit",
        "--chaos-seed",
        "--demo-user",
        "--no-demo-user",
        "--blank",
        "--trusted-domain",
        "--oauth-mock-url",
        "STACK_OAUTH_MOCK_URL",
        "--hardcoded-passkey-challenge",
        "STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING"
      ]
    ) {
      expect(usage).toContain(flag)
    }
  })

  // issue 27 item 11: the service's own test switches, under the names of the environment variables
  // the service reads (apps/backend/src/oauth/providers/mock.tsx: STACK_OAUTH_MOCK_URL;
  // auth/passkey/initiate-passkey-*/route.tsx: STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING,
  // on for any non-empty value as getEnvVariable(name, "") is; at stack-auth/stack-auth 2f719903)
  it("--oauth-mock-url and --hardcoded-passkey-challenge reach the emulator's options", () => {
    const command = parseCommandLine(["--oauth-mock-url", "http://127.0.0.1:8114", "--hardcoded-passkey-challenge"])
    expect(command._tag === "Serve" && command.emulatorOptions).toEqual({
      demo: {},
      oauthMockUrl: "http://127.0.0.1:8114",
      hardcodedPasskeyChallenge: true
    })
  })

  it("STACK_OAUTH_MOCK_URL and STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING are read as the service reads them; the flags win", () => {
    const fromEnv = parseCommandLine([], { STACK_OAUTH_MOCK_URL: "http://localhost:8114", STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "yes" })
    expect(fromEnv._tag === "Serve" && fromEnv.emulatorOptions).toEqual({ demo: {}, oauthMockUrl: "http://localhost:8114", hardcodedPasskeyChallenge: true })
    const flagWins = parseCommandLine(["--oauth-mock-url=http://127.0.0.1:9000"], { STACK_OAUTH_MOCK_URL: "http://localhost:8114" })
    expect(flagWins._tag === "Serve" && flagWins.emulatorOptions.oauthMockUrl).toBe("http://127.0.0.1:9000")
    // empty values are unset (getEnvVariable's default "")
    const empty = parseCommandLine([], { STACK_OAUTH_MOCK_URL: "", STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING: "" })
    expect(empty._tag === "Serve" && empty.emulatorOptions).toEqual({ demo: {} })
    const bad = parseCommandLine([], { STACK_OAUTH_MOCK_URL: "localhost:8114" })
    expect(bad._tag === "Invalid" && bad.message).toBe("Invalid --oauth-mock-url (or STACK_OAUTH_MOCK_URL): an http(s) URL.")
  })

  it("an unknown flag, an argument that is not a flag, a missing or invalid value is refused with the reason", () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["--nope"], "Unknown option '--nope'"],
      [["8102"], "Unexpected argument '8102'"],
      [["--port"], "Option '--port <value>' argument missing"],
      [["--port", "abc"], "Invalid --port or --access-token-lifetime."],
      [["--port", "70000"], "Invalid --port or --access-token-lifetime."],
      [["--port="], "Invalid --port or --access-token-lifetime."],
      [["--access-token-lifetime", "0"], "Invalid --port or --access-token-lifetime."],
      [["--chaos-rate-limit", "2"], "Invalid --chaos-rate-limit (0 to 1) or --chaos-seed (an integer)."],
      [["--chaos-seed", "1.5"], "Invalid --chaos-rate-limit (0 to 1) or --chaos-seed (an integer)."],
      [["--blank=yes"], "Option '--blank' does not take an argument"],
      [["--demo-user", "nobody"], "--demo-user needs \"email:password\""],
      [["--trusted-domain", "app.example.com"], "--trusted-domain needs an http(s) base URL"],
      [["--oauth-mock-url", "ftp://example.com"], "Invalid --oauth-mock-url (or STACK_OAUTH_MOCK_URL): an http(s) URL."],
      [["--hardcoded-passkey-challenge=yes"], "Option '--hardcoded-passkey-challenge' does not take an argument"]
    ]
    for (const [argv, reason] of cases) {
      const command = parseCommandLine(argv)
      expect(command._tag, argv.join(" ")).toBe("Invalid")
      expect(command._tag === "Invalid" && command.message, argv.join(" ")).toContain(reason)
    }
  })
})

describe("the CLI process", () => {
  it.live(
    "when its port is taken: exits 1 with a line that names the port and the --port flag, and prints no JSON line",
    () =>
      Effect.gen(function* () {
        const occupier = net.createServer()
        yield* Effect.acquireRelease(
          Effect.callback<void>((resume) => {
            occupier.listen(0, "127.0.0.1", () => resume(Effect.void))
          }),
          () => Effect.callback<void>((resume) => void occupier.close(() => resume(Effect.void)))
        )
        const port = (occupier.address() as net.AddressInfo).port
        const run = yield* runCli(["--port", String(port)])
        expect(run.code).toBe(1)
        expect(run.stdout).toBe("")
        expect(run.stderr).toContain(`port ${port} is in use on 127.0.0.1: start with --port <another> (or --port 0 for any free port)`)
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "`stack-auth-emulator --help` prints the usage, the service's test switches included, and exits 0",
    () =>
      Effect.gen(function* () {
        const run = yield* runCli(["--help"])
        expect(run.code).toBe(0)
        expect(run.stdout).toBe(`${usage}\n`)
        for (
          const name of ["--oauth-mock-url", "STACK_OAUTH_MOCK_URL", "--hardcoded-passkey-challenge", "STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING"]
        ) {
          expect(run.stdout).toContain(name)
        }
      }),
    60_000
  )

  it.live(
    "an unknown flag exits 2 with the reason and the usage",
    () =>
      Effect.gen(function* () {
        const run = yield* runCli(["--nope"])
        expect(run.code).toBe(2)
        expect(run.stderr).toContain("Unknown option '--nope'")
        expect(run.stderr).toContain(usage)
      }),
    60_000
  )
})
