/**
 * Project settings every request needs: project id, API base URL, publishable client key,
 * client version and extra headers. Built from options or from `Config` (environment variables,
 * PROTOCOL.md §5.4); a missing or malformed setting fails the layer with an error naming it.
 *
 * @module
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Result from "effect/Result"
import { packageVersion as version } from "./internal/version.js"

/** The settings the transport reads. */
export interface StackConfigShape {
  /** `internal` or the project's uuid. */
  readonly projectId: string
  /** API origin without trailing slash; requests go to `{baseUrl}/api/v1{path}`. */
  readonly baseUrl: string
  /** The publishable client key, when the project uses one. */
  readonly publishableClientKey: Option.Option<Redacted.Redacted<string>>
  /** Value of `X-Stack-Client-Version`: `"<platform> <package>@<version>"`. */
  readonly clientVersion: string
  /** Extra headers merged after the defaults and before per-call headers. */
  readonly extraHeaders: Readonly<Record<string, string>>
  /**
   * The project's branch (sent as the `X-Stack-Branch-Id` header), when one is chosen;
   * absent, the service uses its default branch `main` (the official client never sends one).
   */
  readonly branchId?: string | undefined
  /**
   * Extra provider scopes every OAuth sign-in and link of a provider asks for, by provider config
   * id (the official `oauthScopesOnSignIn`), e.g. `{ github: ["repo"] }`.
   */
  readonly oauthScopesOnSignIn?: Readonly<Record<string, ReadonlyArray<string>>> | undefined
}

/** The API origins of an app that reaches the service by another URL from the browser than from its server. */
export interface BaseUrls {
  /** Used where a browser runs the SDK (`window` and `document` exist). */
  readonly browser: string
  /** Used everywhere else (a server, a worker, a test). */
  readonly server: string
}

/** Whether this runs in a browser, as the official `isBrowserLike`: `window`, `document` and `document.createElement` exist. */
const isBrowserLike = (): boolean => {
  const scope = globalThis as { readonly window?: unknown; readonly document?: { readonly createElement?: unknown } }
  return typeof scope.window !== "undefined" && typeof scope.document !== "undefined" && typeof scope.document?.createElement !== "undefined"
}

/**
 * The API origin for where this runs (the official `getBaseUrl`): a string as it is; of
 * `{ browser, server }` the browser's in a browser (`inBrowser`, detected by default), else the server's.
 */
export const selectBaseUrl = (baseUrl: string | BaseUrls | undefined, inBrowser: boolean = isBrowserLike()): string | undefined =>
  baseUrl === undefined || typeof baseUrl === "string" ? baseUrl : inBrowser ? baseUrl.browser : baseUrl.server

/** Options accepted by {@link make} and {@link layer}. */
export interface StackConfigOptions {
  readonly projectId: string
  /**
   * The API origin (`http(s)://…`), defaults to {@link defaultBaseUrl}. Trailing slashes and a
   * trailing `/api/v1` are dropped (`https://api.example.com/api/v1/` → `https://api.example.com`),
   * since every request path gets `/api/v1` added. `{ browser, server }` (the official option) picks
   * the browser's URL in a browser and the server's elsewhere ({@link selectBaseUrl}).
   */
  readonly baseUrl?: string | BaseUrls | undefined
  readonly publishableClientKey?: string | Redacted.Redacted<string> | undefined
  readonly clientVersion?: string | undefined
  readonly extraHeaders?: Readonly<Record<string, string>> | undefined
  /**
   * The project's branch: sent as `X-Stack-Branch-Id` on every request and as the OAuth client id
   * `"<projectId>#<branchId>"` (PROTOCOL.md §1.2, §2.1). 1 to 255 characters; an unknown branch is
   * the service's `BRANCH_DOES_NOT_EXIST` (400). Default: none sent (the service's `main`).
   */
  readonly branchId?: string | undefined
  /** See {@link StackConfigShape.oauthScopesOnSignIn}; a value that is not lists of texts fails with `StackConfigError`. */
  readonly oauthScopesOnSignIn?: Readonly<Record<string, ReadonlyArray<string>>> | undefined
}

/**
 * The OAuth client id of a project: its id, with `#<branchId>` when a branch is chosen
 * (PROTOCOL.md §2.1: `client_id` "may be `<projectId>#<branchId>`").
 */
export const oauthClientId = (config: Pick<StackConfigShape, "projectId" | "branchId">): string =>
  config.branchId === undefined ? config.projectId : `${config.projectId}#${config.branchId}`

/** A setting is missing or malformed; `setting` names it (an option or an environment variable). */
export class StackConfigError extends Data.TaggedError("StackConfigError")<{
  readonly setting: string
  readonly message: string
}> {}

/** The project settings service. */
export class StackConfig extends Context.Service<StackConfig, StackConfigShape>()("stack-auth-effect/StackConfig") {}

/** The hosted service's API origin. */
export const defaultBaseUrl = "https://api.stack-auth.com"

/** This package's version (package.json's) as sent in `X-Stack-Client-Version`. */
export const packageVersion: string = version

/** The default `X-Stack-Client-Version` value. */
export const defaultClientVersion = `js stack-auth-effect@${packageVersion}`

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Checks a project id: `internal` or a uuid. */
export const isProjectId = (value: string): boolean => value === "internal" || uuidPattern.test(value)

/**
 * Drops trailing slashes and a trailing `/api/v1` from a base URL: requests go to
 * `{baseUrl}/api/v1{path}`, so a base URL copied with the version path would otherwise send
 * every request to `…/api/v1/api/v1/…` (a 404).
 */
const normaliseBaseUrl = (url: string): string => url.replace(/\/+$/, "").replace(/\/api\/v1$/i, "").replace(/\/+$/, "")

const fail = (setting: string, message: string) => Effect.fail(new StackConfigError({ setting, message }))

/**
 * Validates options into settings.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { StackConfig } from "stack-auth-effect"
 *
 * const program = Effect.gen(function* () {
 *   const settings = yield* StackConfig.make({ projectId: "internal", baseUrl: "http://127.0.0.1:8102" })
 *   return settings.baseUrl
 * })
 * ```
 */
export const make = (options: StackConfigOptions): Effect.Effect<StackConfigShape, StackConfigError> =>
  Effect.gen(function* () {
    if (typeof options.projectId !== "string" || options.projectId.length === 0) {
      return yield* fail("projectId", "No project id provided. Set the projectId option or STACK_PROJECT_ID.")
    }
    if (!isProjectId(options.projectId)) {
      return yield* fail("projectId", `Project id "${options.projectId}" is neither "internal" nor a uuid.`)
    }
    const selected: unknown = selectBaseUrl(options.baseUrl)
    if (options.baseUrl !== undefined && typeof selected !== "string") {
      return yield* fail("baseUrl", "baseUrl must be a URL or { browser, server } URLs.")
    }
    const rawBase = (selected as string | undefined) ?? defaultBaseUrl
    let parsed: URL
    try {
      parsed = new URL(rawBase)
    } catch {
      return yield* fail("baseUrl", `API base URL "${rawBase}" is not a valid URL.`)
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      return yield* fail("baseUrl", `API base URL "${rawBase}" must use http or https.`)
    }
    const baseUrl = normaliseBaseUrl(rawBase)
    const key = options.publishableClientKey
    const publishableClientKey = key === undefined
      ? Option.none()
      : Redacted.isRedacted(key)
      ? Option.some(key)
      : key.length === 0
      ? Option.none()
      : Option.some(Redacted.make(key))
    if (options.branchId !== undefined && (options.branchId.length === 0 || options.branchId.length > 255)) {
      return yield* fail("branchId", `Branch id "${options.branchId}" must have 1 to 255 characters.`)
    }
    const scopes: unknown = options.oauthScopesOnSignIn
    if (
      scopes !== undefined &&
      (typeof scopes !== "object" || scopes === null || Array.isArray(scopes) ||
        !Object.values(scopes).every((list) => Array.isArray(list) && list.every((scope) => typeof scope === "string")))
    ) {
      return yield* fail("oauthScopesOnSignIn", "oauthScopesOnSignIn must map provider ids to lists of scopes.")
    }
    return {
      projectId: options.projectId,
      baseUrl,
      publishableClientKey,
      clientVersion: options.clientVersion ?? defaultClientVersion,
      extraHeaders: options.extraHeaders ?? {},
      ...(options.branchId === undefined ? {} : { branchId: options.branchId }),
      ...(options.oauthScopesOnSignIn === undefined ? {} : { oauthScopesOnSignIn: options.oauthScopesOnSignIn })
    }
  })

/** A layer from options. */
export const layer = (options: StackConfigOptions): Layer.Layer<StackConfig, StackConfigError> => Layer.effect(StackConfig, make(options))

const firstOf = (names: ReadonlyArray<string>): Config.Config<Option.Option<string>> =>
  Config.map(
    Config.all(names.map((name) => Config.option(Config.String(name)))),
    (values: ReadonlyArray<Option.Option<string>>) => values.find(Option.isSome) ?? Option.none()
  )

/** Environment variables read by {@link layerConfig}, first match wins. */
export const environmentVariables = {
  projectId: ["NEXT_PUBLIC_STACK_PROJECT_ID", "STACK_PROJECT_ID"],
  publishableClientKey: ["NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY", "STACK_PUBLISHABLE_CLIENT_KEY"],
  baseUrl: ["NEXT_PUBLIC_STACK_API_URL", "STACK_API_URL", "NEXT_PUBLIC_STACK_URL"],
  /** Read before `baseUrl`'s in a browser (the official client's names). */
  baseUrlBrowser: ["NEXT_PUBLIC_BROWSER_STACK_API_URL", "NEXT_PUBLIC_STACK_API_URL_BROWSER", "STACK_API_URL_BROWSER"],
  /** Read before `baseUrl`'s elsewhere (the official client's names). */
  baseUrlServer: ["NEXT_PUBLIC_SERVER_STACK_API_URL", "NEXT_PUBLIC_STACK_API_URL_SERVER", "STACK_API_URL_SERVER"],
  extraHeaders: ["NEXT_PUBLIC_STACK_EXTRA_REQUEST_HEADERS", "STACK_EXTRA_REQUEST_HEADERS"]
} as const

/**
 * `Config` values for {@link fromConfig} / {@link layerConfig}: any setting of
 * {@link StackConfigOptions} as a `Config` (as `OpenAiClient.layerConfig` takes them). A setting
 * left out is read from its default environment variables ({@link environmentVariables}; the
 * client version keeps its default).
 *
 * @example
 * ```ts
 * import { Config } from "effect"
 * import { StackConfig } from "stack-auth-effect"
 *
 * // the project id from another variable, the key as a secret, the rest from the default variables
 * const ConfigLive = StackConfig.layerConfig({
 *   projectId: Config.String("AUTH_PROJECT"),
 *   publishableClientKey: Config.Redacted("AUTH_CLIENT_KEY")
 * })
 * ```
 */
export type ConfigOptions = {
  readonly [K in keyof StackConfigOptions]?: Config.Config<StackConfigOptions[K]> | undefined
}

/** One setting: the app's `Config` (named by its option) or the default variables (named by them). */
const readSetting = <A>(
  given: Config.Config<A | undefined> | undefined,
  option: string,
  variables: ReadonlyArray<string>
): Effect.Effect<Option.Option<A | string>, StackConfigError> =>
  given === undefined
    ? firstOf(variables).pipe(
      Effect.mapError((error: Config.ConfigError) => new StackConfigError({ setting: variables.join(" / "), message: String(error) }))
    )
    : given.pipe(
      Effect.map((value) => Option.fromNullishOr(value)),
      Effect.mapError((error: Config.ConfigError) => new StackConfigError({ setting: option, message: String(error) }))
    )

/**
 * Reads the settings from `Config`: each setting given in `options`, else its default environment
 * variables — `STACK_PROJECT_ID`, `STACK_PUBLISHABLE_CLIENT_KEY`, `STACK_API_URL` (preceded by
 * `STACK_API_URL_BROWSER` in a browser and `STACK_API_URL_SERVER` elsewhere, as the official client),
 * `STACK_EXTRA_REQUEST_HEADERS` (a JSON object of strings) and their `NEXT_PUBLIC_` variants. A
 * missing or malformed setting fails with a {@link StackConfigError} naming the option (a given
 * `Config`) or the variable (a default).
 */
export const fromConfig = (options: ConfigOptions = {}): Effect.Effect<StackConfigShape, StackConfigError> =>
  Effect.gen(function* () {
    const projectId = yield* readSetting(options.projectId, "projectId", environmentVariables.projectId)
    if (Option.isNone(projectId)) {
      return yield* fail(
        "STACK_PROJECT_ID",
        "No project id provided. Please copy it from the Stack Auth dashboard and put it in the STACK_PROJECT_ID environment variable."
      )
    }
    const baseUrl = yield* readSetting(options.baseUrl, "baseUrl", [
      ...(isBrowserLike() ? environmentVariables.baseUrlBrowser : environmentVariables.baseUrlServer),
      ...environmentVariables.baseUrl
    ])
    const oauthScopesOnSignIn = options.oauthScopesOnSignIn === undefined
      ? undefined
      : yield* options.oauthScopesOnSignIn.pipe(
        Effect.mapError((error: Config.ConfigError) => new StackConfigError({ setting: "oauthScopesOnSignIn", message: String(error) }))
      )
    const key = yield* readSetting(options.publishableClientKey, "publishableClientKey", environmentVariables.publishableClientKey)
    const clientVersion = options.clientVersion === undefined ? Option.none<string>() : yield* readSetting(options.clientVersion, "clientVersion", [])
    const branchId = options.branchId === undefined ? Option.none<string>() : yield* readSetting(options.branchId, "branchId", [])
    let extraHeaders: Readonly<Record<string, string>> = {}
    if (options.extraHeaders !== undefined) {
      const given = yield* readSetting(options.extraHeaders, "extraHeaders", [])
      extraHeaders = Option.getOrElse(given, () => ({})) as Readonly<Record<string, string>>
    } else {
      const extra = yield* readSetting(undefined, "extraHeaders", environmentVariables.extraHeaders)
      if (Option.isSome(extra)) {
        const parsed = Result.try(() => JSON.parse(extra.value as string) as unknown)
        if (
          Result.isFailure(parsed) ||
          typeof parsed.success !== "object" ||
          parsed.success === null ||
          Array.isArray(parsed.success) ||
          !Object.values(parsed.success).every((v) => typeof v === "string")
        ) {
          return yield* fail("STACK_EXTRA_REQUEST_HEADERS", "STACK_EXTRA_REQUEST_HEADERS must be a JSON object of strings.")
        }
        extraHeaders = parsed.success as Record<string, string>
      }
    }
    return yield* make({
      projectId: projectId.value,
      baseUrl: Option.getOrUndefined(baseUrl),
      publishableClientKey: Option.getOrUndefined(key),
      clientVersion: Option.getOrUndefined(clientVersion),
      extraHeaders,
      branchId: Option.getOrUndefined(branchId),
      oauthScopesOnSignIn
    }).pipe(
      Effect.mapError((error) =>
        new StackConfigError({
          // a default setting is named by its variable, a given one by its option
          setting: error.setting === "projectId" && options.projectId === undefined
            ? "STACK_PROJECT_ID"
            : error.setting === "baseUrl" && options.baseUrl === undefined
            ? "STACK_API_URL"
            : error.setting,
          message: error.message
        })
      )
    )
  })

/**
 * A layer reading the settings from `Config` (see {@link fromConfig}): with no argument, from the
 * default environment variables; pass `Config` values to read any setting elsewhere.
 */
export const layerConfig = (options: ConfigOptions = {}): Layer.Layer<StackConfig, StackConfigError> => Layer.effect(StackConfig, fromConfig(options))
