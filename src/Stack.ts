/**
 * Ready-made layers for the three access levels: settings + transport + session (+ keys).
 * Everything is swappable: pass `httpClient` (the emulator's in-process client, msw…),
 * `retryPolicy` or `tokenStore` layers to replace the defaults.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Auth, Stack, Users } from "stack-auth-effect"
 *
 * const StackLive = Stack.layerClient({ projectId: "…", publishableClientKey: "pck_…" })
 * const program = Effect.gen(function* () {
 *   yield* Auth.signInWithPassword({ email: "ada@example.com", password: "correct horse" })
 *   return yield* Users.getCurrent()
 * })
 * Effect.runPromise(program.pipe(Effect.provide(StackLive)))
 * ```
 *
 * @module
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as Redacted from "effect/Redacted"
import * as Layer from "effect/Layer"
import * as QueryCache from "./cache/QueryCache.js"
import * as Access from "./core/Access.js"
import type { AdminAccess, MissingAccessKey, ServerAccess } from "./core/Access.js"
import * as RetryPolicy from "./core/RetryPolicy.js"
import * as StackClient from "./core/StackClient.js"
import * as StackConfig from "./core/StackConfig.js"
import * as Session from "./session/Session.js"
import * as TokenStore from "./session/TokenStore.js"

/** Layers that replace the defaults. */
export interface Overrides {
  /** Defaults to `fetch` with `credentials: "omit"` and `cache: "no-store"`. */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient> | undefined
  /** Defaults to `RetryPolicy.layer`. */
  readonly retryPolicy?: Layer.Layer<RetryPolicy.RetryPolicy> | undefined
  /** Defaults to an in-memory store. */
  readonly tokenStore?: Layer.Layer<TokenStore.TokenStore, TokenStore.TokenStoreError> | undefined
  /**
   * The query cache (DESIGN.md §3): on by default, one per layer. Pass options to tune it, or
   * `false` to turn caching off (reads then always ask the service).
   */
  readonly queryCache?: QueryCache.Options | false | undefined
}

/** Options of {@link layerClient}. */
export interface ClientOptions extends StackConfig.StackConfigOptions, Overrides {}

/** The services every call needs. */
export type ClientServices =
  | StackConfig.StackConfig
  | StackClient.StackClient
  | Session.Session
  | TokenStore.TokenStore
  | QueryCache.QueryCache

const transport = (config: Layer.Layer<StackConfig.StackConfig, StackConfig.StackConfigError>, overrides: Overrides) =>
  StackClient.layerWithoutDependencies.pipe(
    Layer.provide(overrides.httpClient ?? StackClient.layerFetch),
    Layer.provide(overrides.retryPolicy ?? RetryPolicy.layer),
    Layer.provideMerge(config)
  )

const withSession = (
  config: Layer.Layer<StackConfig.StackConfig, StackConfig.StackConfigError>,
  overrides: Overrides
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> =>
  QueryCache.layer(overrides.queryCache === false ? { enabled: false } : (overrides.queryCache ?? {})).pipe(
    Layer.provideMerge(Session.layer),
    Layer.provideMerge(overrides.tokenStore ?? TokenStore.layerMemory()),
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

/** Server access: client access plus the secret server key. */
export const layerServer = (
  options: ServerOptions
): Layer.Layer<ClientServices | ServerAccess, StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey> =>
  Layer.merge(layerClient(options), Access.layerServer(options.secretServerKey))

/** Options of {@link layerAdmin}. */
export interface AdminOptions extends ClientOptions {
  readonly superSecretAdminKey: string | Redacted.Redacted<string>
  readonly secretServerKey?: string | Redacted.Redacted<string> | undefined
}

/** Admin access with the super secret admin key (plus server access when a secret key is given). */
export const layerAdmin = (
  options: AdminOptions
): Layer.Layer<ClientServices | AdminAccess, StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey> =>
  Layer.merge(layerClient(options), Access.layerAdminKey(options.superSecretAdminKey))

/** Client access configured from the environment (`STACK_PROJECT_ID`, `STACK_PUBLISHABLE_CLIENT_KEY`, `STACK_API_URL`…). */
export const layerClientConfig = (
  overrides: Overrides = {}
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> =>
  withSession(StackConfig.layerConfig, overrides)

/** Server access configured from the environment (adds `STACK_SECRET_SERVER_KEY`). */
export const layerServerConfig = (
  overrides: Overrides = {}
): Layer.Layer<ClientServices | ServerAccess, StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey> =>
  Layer.merge(layerClientConfig(overrides), Access.layerServerConfig)

/** Admin access configured from the environment (adds `STACK_SUPER_SECRET_ADMIN_KEY`). */
export const layerAdminConfig = (
  overrides: Overrides = {}
): Layer.Layer<ClientServices | AdminAccess, StackConfig.StackConfigError | TokenStore.TokenStoreError | MissingAccessKey> =>
  Layer.merge(layerClientConfig(overrides), Access.layerAdminConfig)
