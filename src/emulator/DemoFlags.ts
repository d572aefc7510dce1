/**
 * The command-line flags that seed the demo project, shared by `stack-auth-emulator` (the CLI) and
 * `npm start` (the demo app), and their human-readable summary. They build the same
 * {@link DemoProjectOptions} that `Emulator.make({ demo })` takes, so the three start the same demo:
 * the demo user and every switch of `defaults.demoConfig` on unless a flag says otherwise.
 *
 * | flag | effect |
 * |---|---|
 * | `--demo-user email:password` | the demo user (default `demo@example.com:demo-password-1234`) |
 * | `--no-demo-user` | no demo user |
 * | `--blank` | the demo project as the service creates a project (`blankDemo`); later flags apply on top |
 * | `--[no-]sign-up`, `--[no-]password`, `--[no-]magic-link`, `--[no-]passkeys` | sign-in switches |
 * | `--[no-]client-team-creation`, `--[no-]client-user-deletion` | client team creation, client user deletion |
 * | `--[no-]user-api-keys`, `--[no-]team-api-keys` | user and team API keys |
 * | `--[no-]localhost` | trust `localhost` callback and redirect URLs |
 * | `--trusted-domain https://app.example.com` | trust a domain (repeatable; `*` wildcards; handler path `/handler`) |
 *
 * @module
 */
import { parseArgs } from "node:util"
import type { DemoSwitches } from "./Defaults.js"
import type { DemoProjectOptions, DemoSeed, SeedUserOptions } from "./Emulator.js"
import { blankDemo } from "./Emulator.js"
import type { ProjectConfig, TrustedDomain } from "./State.js"

/** The switch flags and the `ProjectConfig` field each one sets. */
export const switchFlags = {
  "sign-up": "signUpEnabled",
  password: "credentialEnabled",
  "magic-link": "magicLinkEnabled",
  passkeys: "passkeyEnabled",
  "client-team-creation": "clientTeamCreationEnabled",
  "client-user-deletion": "clientUserDeletionEnabled",
  "user-api-keys": "allowUserApiKeys",
  "team-api-keys": "allowTeamApiKeys",
  localhost: "allowLocalhost"
} as const satisfies Record<string, keyof DemoSwitches>

/** The usage lines of the demo flags. */
export const demoFlagsUsage = `Demo project (defaults: the demo user and every switch on):
  --demo-user email:password   the demo user (default demo@example.com:demo-password-1234)
  --no-demo-user               no demo user
  --blank                      the demo project as the service creates one (no user; magic link,
                               passkeys, client team creation / user deletion, API keys off)
  --[no-]sign-up  --[no-]password  --[no-]magic-link  --[no-]passkeys  --[no-]localhost
  --[no-]client-team-creation  --[no-]client-user-deletion  --[no-]user-api-keys  --[no-]team-api-keys
  --trusted-domain <url>       trust a domain for callback / redirect URLs (repeatable), e.g.
                               --trusted-domain https://app.example.com`

/** The demo options built from the flags, and the arguments that are not demo flags (in order). */
export interface ParsedDemoFlags {
  readonly demo: DemoProjectOptions
  readonly rest: ReadonlyArray<string>
}

/** A flag as `node:util` `parseArgs` takes it. */
export interface FlagOption {
  readonly type: "string" | "boolean"
  readonly multiple?: boolean
  readonly short?: string
}

/** An option as `parseArgs({ tokens: true })` reports it, in command-line order. */
export interface OptionToken {
  readonly kind: "option"
  readonly name: string
  readonly index: number
  readonly value?: string | undefined
}

/** The demo flags as `node:util` `parseArgs` options (`--x` and `--no-x` of each switch). */
export const demoFlagOptions: Readonly<Record<string, FlagOption>> = {
  "demo-user": { type: "string" },
  "no-demo-user": { type: "boolean" },
  blank: { type: "boolean" },
  "trusted-domain": { type: "string", multiple: true },
  ...Object.fromEntries(
    Object.keys(switchFlags).flatMap((flag): Array<[string, FlagOption]> => [
      [flag, { type: "boolean" }],
      [`no-${flag}`, { type: "boolean" }]
    ])
  )
}

/** Whether a token is a demo flag as its option says (a boolean flag given a value is not one). */
const isDemoFlag = (token: OptionToken): boolean => {
  const option = demoFlagOptions[token.name]
  return option !== undefined && Object.hasOwn(demoFlagOptions, token.name) && (option.type === "string" || token.value === undefined)
}

const isHttpPattern = (text: string): boolean => /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/.test(text)

/**
 * The demo options of the demo-flag tokens of a command line, applied in order (so `--blank` then
 * `--magic-link` turns magic links on again); tokens of other flags are skipped. An invalid value
 * is an `error` text.
 */
export const demoOptionsOf = (tokens: ReadonlyArray<OptionToken>): { readonly demo: DemoProjectOptions } | { readonly error: string } => {
  const config: { -readonly [K in keyof ProjectConfig]?: ProjectConfig[K] } = {}
  const domains: Array<TrustedDomain> = []
  let user: SeedUserOptions | false | undefined
  for (const token of tokens) {
    if (!isDemoFlag(token)) continue
    const { name, value } = token
    if (name === "demo-user") {
      const colon = value?.indexOf(":") ?? -1
      if (value === undefined || colon < 1 || colon === value.length - 1) {
        return { error: `--demo-user needs "email:password", e.g. --demo-user ada@example.com:correct-horse.` }
      }
      user = { email: value.slice(0, colon), password: value.slice(colon + 1) }
    } else if (name === "no-demo-user") {
      user = false
    } else if (name === "blank") {
      Object.assign(config, blankDemo.config)
      user = false
    } else if (name === "trusted-domain") {
      if (value === undefined || !isHttpPattern(value)) {
        return { error: `--trusted-domain needs an http(s) base URL, e.g. --trusted-domain https://app.example.com (got ${JSON.stringify(value ?? "")}).` }
      }
      domains.push({ domain: value.replace(/\/+$/, ""), handlerPath: "/handler" })
    } else if (name in switchFlags) {
      config[switchFlags[name as keyof typeof switchFlags]] = true
    } else {
      config[switchFlags[name.slice(3) as keyof typeof switchFlags]] = false
    }
  }
  return {
    demo: {
      ...(user === undefined ? {} : { user }),
      ...(Object.keys(config).length === 0 && domains.length === 0 ? {} : { config: { ...config, ...(domains.length === 0 ? {} : { domains }) } })
    }
  }
}

/**
 * Takes the demo flags out of `argv` (`--name value` or `--name=value`, read by `node:util`
 * `parseArgs`); the other arguments are returned untouched in `rest` for the caller's own parser.
 * An invalid value is an `error` text.
 */
export const parseDemoFlags = (argv: ReadonlyArray<string>): ParsedDemoFlags | { readonly error: string } => {
  const { tokens } = parseArgs({ args: [...argv], options: demoFlagOptions, strict: false, allowPositionals: true, tokens: true })
  const options = tokens.filter((token): token is typeof token & OptionToken => token.kind === "option")
  const parsed = demoOptionsOf(options)
  if ("error" in parsed) return parsed
  // what is not a demo flag, in order: each argument once (grouped short flags share one)
  const demoIndexes = new Set(
    options.filter(isDemoFlag).flatMap((token) => (token.value !== undefined && !token.inlineValue ? [token.index, token.index + 1] : [token.index]))
  )
  const rest = argv.filter((_, index) => !demoIndexes.has(index))
  return { demo: parsed.demo, rest }
}

/**
 * The seeded demo as lines for a terminal: the demo user, the switches on and off, the trusted
 * domains; with `flags` (default true) each line names the CLI flags that change it.
 */
export const describeDemoSeed = (seed: DemoSeed, options: { readonly flags?: boolean } = {}): ReadonlyArray<string> => {
  const flags = options.flags ?? true
  const hint = (text: string) => (flags ? `  (${text})` : "")
  const on = (Object.keys(switchFlags) as Array<keyof typeof switchFlags>).filter((flag) => seed.config[switchFlags[flag]])
  const off = (Object.keys(switchFlags) as Array<keyof typeof switchFlags>).filter((flag) => !seed.config[switchFlags[flag]])
  const trusted = [...(seed.config.allowLocalhost ? ["localhost"] : []), ...seed.trustedDomains]
  return [
    seed.user === undefined
      ? `Demo user  none${hint("--demo-user email:password seeds one")}`
      : `Demo user  ${seed.user.email} / ${seed.user.password}${hint("--demo-user email:password, --no-demo-user")}`,
    `On         ${on.length === 0 ? "nothing" : on.join(", ")}${off.length === 0 ? "" : `; off: ${off.join(", ")}`}${hint("--no-<switch> / --<switch>")}`,
    `Trusted    ${trusted.length === 0 ? "nothing" : trusted.join(", ")}${hint("--trusted-domain https://your.app; the emulator has no dashboard")}`
  ]
}
