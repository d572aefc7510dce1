/**
 * The command line of `stack-auth-emulator` (`cli.ts`), read with `node:util` `parseArgs`: the
 * flags, their usage text, the options of `serve` they make, and the line printed when the server
 * cannot listen. Node only.
 *
 * @module
 */
import { parseArgs } from "node:util"
import type { FlagOption, OptionToken } from "./DemoFlags.js"
import { demoFlagOptions, demoFlagsUsage, demoOptionsOf } from "./DemoFlags.js"
import type { DemoProjectOptions, EmulatorOptions } from "./Emulator.js"
import type { ServeError } from "./server.js"

/** The text of `--help`. */
export const usage = `Usage: stack-auth-emulator [--port 8102] [--host 127.0.0.1] [--base-url http://localhost:8102] [--project-id <uuid>]
  [--publishable-client-key pck_…] [--secret-server-key ssk_…] [--super-secret-admin-key sak_…]
  [--access-token-lifetime <seconds>] [--chaos-rate-limit <0..1>] [--chaos-seed <integer>]
  [--allowed-host <name>] (repeatable: another host name requests may be addressed to, besides
  the base URL's, localhost, *.localhost and IP addresses)
  [--email-render-timeout <ms>] [--email-render-memory <MB>] (bounds of one e-mail template
  rendering, default 10000 ms and 512 MB; past either: EMAIL_RENDERING_ERROR)
  [--oauth-mock-url <url>] every OAuth provider's authorize, token and userinfo calls go to the
    OpenID Connect server at <url> (as the service's STACK_OAUTH_MOCK_URL, which is read too);
    default: the emulator's own mock provider
  [--hardcoded-passkey-challenge] every passkey challenge is "MOCK" (as the service's
    STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING, which is read too: any non-empty value)
  [demo flags]
${demoFlagsUsage}`

/** The flags of the command line besides the demo flags, as `parseArgs` options. */
const serverFlagOptions = {
  help: { type: "boolean", short: "h" },
  port: { type: "string" },
  host: { type: "string" },
  "base-url": { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  "project-id": { type: "string" },
  "publishable-client-key": { type: "string" },
  "secret-server-key": { type: "string" },
  "super-secret-admin-key": { type: "string" },
  "access-token-lifetime": { type: "string" },
  "chaos-rate-limit": { type: "string" },
  "chaos-seed": { type: "string" },
  "email-render-timeout": { type: "string" },
  "email-render-memory": { type: "string" },
  "oauth-mock-url": { type: "string" },
  "hardcoded-passkey-challenge": { type: "boolean" }
} as const satisfies Record<string, FlagOption>

/** The environment variables of the service the command line reads (flags win). */
export interface CommandLineEnvironment {
  /** An external OpenID Connect server for every OAuth provider (`--oauth-mock-url`). */
  readonly STACK_OAUTH_MOCK_URL?: string | undefined
  /** Any non-empty value: the hard-coded passkey challenge (`--hardcoded-passkey-challenge`). */
  readonly STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING?: string | undefined
}

/** What the command line asks for: the usage, a server, or nothing because a flag is wrong. */
export type Command =
  | { readonly _tag: "Help" }
  | { readonly _tag: "Invalid"; readonly message: string }
  | {
    readonly _tag: "Serve"
    readonly port: number
    readonly host: string
    readonly baseUrl: string | undefined
    readonly allowedHosts: ReadonlyArray<string>
    readonly emulatorOptions: EmulatorOptions
  }

const invalid = (message: string): Command => ({ _tag: "Invalid", message })

/** The server flags' values and every option token, or why `parseArgs` refused the command line. */
const readFlags = (argv: ReadonlyArray<string>) => {
  try {
    const { tokens, values } = parseArgs({
      args: [...argv],
      options: { ...demoFlagOptions, ...serverFlagOptions },
      strict: true,
      allowPositionals: false,
      tokens: true
    })
    return {
      tokens,
      values: values as
        & {
          readonly [K in Exclude<keyof typeof serverFlagOptions, "help" | "allowed-host" | "hardcoded-passkey-challenge">]?: string
        }
        & {
          readonly "allowed-host"?: ReadonlyArray<string>
          readonly "hardcoded-passkey-challenge"?: boolean
        }
    }
  } catch (error) {
    return error instanceof Error ? error.message : String(error)
  }
}

/**
 * Reads the command line (`--name value` or `--name=value`; a value that starts with `-` is
 * written `--name=-value`). `--help` / `-h` anywhere asks for the usage; an unknown flag, an
 * argument that is not a flag, a missing or invalid value is `Invalid` with the reason. `env`
 * holds the service's environment variables the emulator reads too (`cli.ts` passes
 * `process.env`): `STACK_OAUTH_MOCK_URL` and `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING`,
 * the defaults of `--oauth-mock-url` and `--hardcoded-passkey-challenge`.
 */
export const parseCommandLine = (argv: ReadonlyArray<string>, env: CommandLineEnvironment = {}): Command => {
  if (argv.includes("--help") || argv.includes("-h")) return { _tag: "Help" }
  const parsed = readFlags(argv)
  if (typeof parsed === "string") return invalid(parsed)
  const tokens = parsed.tokens.filter((token): token is typeof token & OptionToken => token.kind === "option")
  const demoFlags = demoOptionsOf(tokens)
  if ("error" in demoFlags) return invalid(demoFlags.error)
  const values = parsed.values

  const port = /^\d{1,5}$/.test(values.port ?? "8102") ? Number(values.port ?? "8102") : Number.NaN
  const lifetime = values["access-token-lifetime"] === undefined ? undefined : Number(values["access-token-lifetime"])
  if (!(port >= 0 && port <= 65535) || (lifetime !== undefined && !(Number.isInteger(lifetime) && lifetime > 0))) {
    return invalid("Invalid --port or --access-token-lifetime.")
  }
  const chaosRate = values["chaos-rate-limit"] === undefined ? undefined : Number(values["chaos-rate-limit"])
  const chaosSeed = values["chaos-seed"] === undefined ? undefined : Number(values["chaos-seed"])
  if ((chaosRate !== undefined && !(chaosRate >= 0 && chaosRate <= 1)) || (chaosSeed !== undefined && !Number.isSafeInteger(chaosSeed))) {
    return invalid("Invalid --chaos-rate-limit (0 to 1) or --chaos-seed (an integer).")
  }
  const renderTimeout = values["email-render-timeout"] === undefined ? undefined : Number(values["email-render-timeout"])
  const renderMemory = values["email-render-memory"] === undefined ? undefined : Number(values["email-render-memory"])
  if ([renderTimeout, renderMemory].some((value) => value !== undefined && !(Number.isSafeInteger(value) && value > 0))) {
    return invalid("Invalid --email-render-timeout or --email-render-memory (a positive integer).")
  }
  const oauthMockUrl = values["oauth-mock-url"] ?? (env.STACK_OAUTH_MOCK_URL || undefined)
  if (oauthMockUrl !== undefined && !/^https?:\/\/[^/]/.test(oauthMockUrl)) {
    return invalid("Invalid --oauth-mock-url (or STACK_OAUTH_MOCK_URL): an http(s) URL.")
  }
  // the service's getEnvVariable(name, "") is on for any non-empty value
  const hardcodedPasskeyChallenge = values["hardcoded-passkey-challenge"] === true ||
    (env.STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING ?? "") !== ""
  const demo: DemoProjectOptions = {
    ...demoFlags.demo,
    ...(values["project-id"] !== undefined ? { id: values["project-id"] } : {}),
    ...(values["publishable-client-key"] !== undefined ? { publishableClientKey: values["publishable-client-key"] } : {}),
    ...(values["secret-server-key"] !== undefined ? { secretServerKey: values["secret-server-key"] } : {}),
    ...(values["super-secret-admin-key"] !== undefined ? { superSecretAdminKey: values["super-secret-admin-key"] } : {})
  }
  return {
    _tag: "Serve",
    port,
    host: values.host ?? "127.0.0.1",
    baseUrl: values["base-url"],
    allowedHosts: values["allowed-host"] ?? [],
    emulatorOptions: {
      demo,
      ...(lifetime !== undefined ? { accessTokenLifetimeSeconds: lifetime } : {}),
      ...(chaosRate !== undefined ? { chaosRateLimit: { rate: chaosRate, ...(chaosSeed !== undefined ? { seed: chaosSeed } : {}) } } : {}),
      ...(renderTimeout !== undefined || renderMemory !== undefined
        ? {
          emailRendering: {
            ...(renderTimeout !== undefined ? { timeoutMillis: renderTimeout } : {}),
            ...(renderMemory !== undefined ? { maxMemoryMb: renderMemory } : {})
          }
        }
        : {}),
      ...(oauthMockUrl !== undefined ? { oauthMockUrl } : {}),
      ...(hardcodedPasskeyChallenge ? { hardcodedPasskeyChallenge } : {})
    }
  }
}

/**
 * The line printed when the server cannot listen: for a port in use, which flag picks another;
 * for an address this machine does not have, which flag picks one it has; else the system's reason.
 */
export const listenFailureText = (error: ServeError, port: number, host: string): string => {
  const code = typeof error.cause === "object" && error.cause !== null ? (error.cause as { readonly code?: unknown }).code : undefined
  if (code === "EADDRINUSE") return `port ${port} is in use on ${host}: start with --port <another> (or --port 0 for any free port)`
  if (code === "EADDRNOTAVAIL") return `${host} is not an address of this machine: start with --host 127.0.0.1 (or another address it has)`
  return error.message
}
