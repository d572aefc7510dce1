/**
 * Ready-made layers for the three access levels: settings + transport + session (+ keys).
 * Everything is swappable: pass `httpClient` (the emulator's in-process client, msw…),
 * `retryPolicy` or `tokenStore` layers to replace the defaults.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Password, Stack, Users } from "stack-auth-effect"
 *
 * const StackLive = Stack.layerClient({ projectId: "…", publishableClientKey: "pck_…" })
 * const program = Effect.gen(function* () {
 *   yield* Password.signInWithPassword({ email: "ada@example.com", password: "correct horse" })
 *   return yield* Users.getCurrent()
 * })
 * Effect.runPromise(program.pipe(Effect.provide(StackLive)))
 * ```
 *
 * @module
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Redacted from "effect/Redacted"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { ClientServices } from "./cache/ClientServices.js"
import * as QueryCache from "./cache/QueryCache.js"
import * as Access from "./core/Access.js"
import type { AdminAccess, MissingAccessKey, ServerAccess } from "./core/Access.js"
import * as RetryPolicy from "./core/RetryPolicy.js"
import * as StackClient from "./core/StackClient.js"
import * as StackConfig from "./core/StackConfig.js"
import * as BrowserCookieStore from "./session/BrowserCookieStore.js"
import * as Session from "./session/Session.js"
import * as TokenStore from "./session/TokenStore.js"

/** Layers that replace the defaults. */
export interface Overrides {
  /** Defaults to `fetch` with `credentials: "omit"` and `cache: "no-store"`. */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient> | undefined
  /** Defaults to `RetryPolicy.layer`. */
  readonly retryPolicy?: Layer.Layer<RetryPolicy.RetryPolicy> | undefined
  /**
   * Where the user's tokens live: `"cookie"` (the browser cookie store: sessions survive reloads
   * and are shared by tabs), `"memory"`, or any `TokenStore` layer. Defaults to `"cookie"` in a
   * browser (where `document` exists) and `"memory"` elsewhere, as the official client's
   * `tokenStore` option.
   */
  readonly tokenStore?: Layer.Layer<TokenStore.TokenStore, TokenStore.TokenStoreError> | "cookie" | "memory" | undefined
  /**
   * The query cache (DESIGN.md §3): on by default, one per layer. Pass options to tune it, or
   * `false` to turn caching off (reads then always ask the service).
   */
  readonly queryCache?: QueryCache.Options | false | undefined
}

/** Options of {@link layerClient}. */
export interface ClientOptions extends StackConfig.StackConfigOptions, Overrides {}

/** The services every call needs (defined in `cache/ClientServices.ts`, where the React binding reads it too). */
export type { ClientServices } from "./cache/ClientServices.js"

const transport = (config: Layer.Layer<StackConfig.StackConfig, StackConfig.StackConfigError>, overrides: Overrides) =>
  StackClient.layerWithoutDependencies.pipe(
    Layer.provide(overrides.httpClient ?? StackClient.layerFetch),
    Layer.provide(overrides.retryPolicy ?? RetryPolicy.layer),
    Layer.provideMerge(config)
  )

/** Whether this runs in a browser (a `document` exists). */
const inBrowser = (): boolean => typeof (globalThis as { readonly document?: unknown }).document !== "undefined"

/**
 * The token store a layer uses: the given layer, or `"cookie"` / `"memory"`, or by default the
 * browser cookie store in a browser and memory elsewhere. The cookie store reads the project id
 * from the layer's settings.
 */
export const tokenStoreLayer = (
  choice: Overrides["tokenStore"]
): Layer.Layer<TokenStore.TokenStore, TokenStore.TokenStoreError, StackConfig.StackConfig> => {
  if (typeof choice === "object") return choice
  const cookie = Layer.unwrapEffect(
    Effect.map(StackConfig.StackConfig, (config) => BrowserCookieStore.layer({ projectId: config.projectId }))
  )
  if (choice === "cookie") return cookie
  if (choice === "memory") return TokenStore.layerMemory()
  return Layer.unwrapEffect(Effect.sync(() => (inBrowser() ? cookie : TokenStore.layerMemory())))
}

const withSession = (
  config: Layer.Layer<StackConfig.StackConfig, StackConfig.StackConfigError>,
  overrides: Overrides
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> =>
  QueryCache.layer(overrides.queryCache === false ? { enabled: false } : (overrides.queryCache ?? {})).pipe(
    Layer.provideMerge(Session.layer),
    Layer.provideMerge(tokenStoreLayer(overrides.tokenStore).pipe(Layer.provide(config))),
    Layer.provideMerge(transport(config, overrides))
  )

/** Client access: publishable key + the user's tokens. */
export const layerClient = (
  options: ClientOptions
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> =>
  withSession(StackConfig.layer(options), options)

/** Options of {@link layerServer}. */
export interface ServerOptions extends ClientOptions {
  readonly secretServerKey: string | Redacted.Redacted<string>
}

/**
 * The SDK's secret header names (`x-stack-auth`, `x-stack-access-token`…) added to the platform's
 * redacted header names for the whole runtime: the app's own server tracer then records a request
 * that carries them (e.g. one authenticated by `stack-auth-effect/server`) as `<redacted>`.
 */
const redactSecretHeaders = StackClient.layerRedactHeaders(StackClient.secretHeaderNames)

/**
 * Server access: client access plus the secret server key. Also adds the SDK's secret header
 * names to the platform's redacted header names (the app server's request spans).
 */
export const layerServer = (
  options: ServerOptions
): Layer.Layer<ClientServices | ServerAccess, StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey> =>
  Layer.mergeAll(layerClient(options), Access.layerServer(options.secretServerKey), redactSecretHeaders)

/** Options of {@link layerAdmin}. */
export interface AdminOptions extends ClientOptions {
  readonly superSecretAdminKey: string | Redacted.Redacted<string>
  /** Also grants server access (`ServerUsers`, `ServerTeams`…) when given. */
  readonly secretServerKey?: string | Redacted.Redacted<string> | undefined
}

/** `ServerAccess` when the options' type carries a `secretServerKey`, else nothing. */
export type ServerAccessOf<O extends AdminOptions> = O extends { readonly secretServerKey: string | Redacted.Redacted<string> }
  ? ServerAccess
  : never

/**
 * Admin access with the super secret admin key, plus server access when a secret server key is
 * given: with `secretServerKey` in the options the layer also provides `ServerAccess` (typed: the
 * layer's output includes it when the options' type has the key, e.g. an object literal), so
 * server calls such as `ServerUsers.list()` run under it. An empty key fails with
 * `MissingAccessKey` (`setting: "secretServerKey"`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ServerUsers, Stack } from "stack-auth-effect"
 *
 * const AdminLive = Stack.layerAdmin({ projectId: "…", superSecretAdminKey: "sak_…", secretServerKey: "ssk_…" })
 * const users = ServerUsers.list().pipe(Effect.provide(AdminLive))
 * ```
 */
export const layerAdmin = <const O extends AdminOptions>(
  options: O
): Layer.Layer<
  ClientServices | AdminAccess | ServerAccessOf<O>,
  StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey
> => {
  const admin = Layer.merge(layerClient(options), Access.layerAdminKey(options.superSecretAdminKey))
  // The output type names ServerAccess exactly when the key is in the options' type; at run time
  // a key given through a wider type is used all the same.
  return (options.secretServerKey === undefined ? admin : Layer.merge(admin, Access.layerServer(options.secretServerKey))) as Layer.Layer<
    ClientServices | AdminAccess | ServerAccessOf<O>,
    StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey
  >
}

/** Client access configured from the environment (`STACK_PROJECT_ID`, `STACK_PUBLISHABLE_CLIENT_KEY`, `STACK_API_URL`…). */
export const layerClientConfig = (
  overrides: Overrides = {}
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> =>
  withSession(StackConfig.layerConfig(), overrides)

/** Server access configured from the environment (adds `STACK_SECRET_SERVER_KEY`). */
export const layerServerConfig = (
  overrides: Overrides = {}
): Layer.Layer<ClientServices | ServerAccess, StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey> =>
  Layer.merge(layerClientConfig(overrides), Access.layerServerConfig)

/**
 * Admin access configured from the environment (adds `STACK_SUPER_SECRET_ADMIN_KEY`). Admin access
 * only, whatever the environment holds: for server calls too, pass `{ server: true }`, which also
 * reads `STACK_SECRET_SERVER_KEY` (missing or empty: `MissingAccessKey`) and provides `ServerAccess`.
 */
export const layerAdminConfig = <const O extends AdminConfigOverrides = {}>(
  overrides?: O
): Layer.Layer<
  ClientServices | AdminAccess | (O extends { readonly server: true } ? ServerAccess : never),
  StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey
> => {
  const admin = Layer.merge(layerClientConfig(overrides ?? {}), Access.layerAdminConfig)
  return (overrides?.server === true ? Layer.merge(admin, Access.layerServerConfig) : admin) as Layer.Layer<
    ClientServices | AdminAccess | (O extends { readonly server: true } ? ServerAccess : never),
    StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey
  >
}

/** Overrides of {@link layerAdminConfig}: the layers, and whether to add server access. */
export interface AdminConfigOverrides extends Overrides {
  /** `true`: also server access from `STACK_SECRET_SERVER_KEY` (required then). */
  readonly server?: boolean | undefined
}
