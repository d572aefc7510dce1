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
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import type * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
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
   * The domains this app is served under, whose `--custom-` refresh cookies count; none by
   * default. Such cookies are the official SDK's cross-subdomain sessions (written for a parent
   * domain such as `example.com` when the app runs on `app.example.com`): list that domain to read
   * them. A `--custom-` cookie of a domain not listed is ignored and left alone, so a sibling
   * subdomain cannot plant a session. Used by the browser cookie store (the `"cookie"` choice or
   * the browser default of `tokenStore`); entries that are not domain names (a scheme, a port, a
   * leading dot) match nothing.
   */
  readonly cookieDomains?: ReadonlyArray<string> | undefined
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

/** Whether this runs in a browser (a `document` exists). */
const inBrowser = (): boolean => typeof (globalThis as { readonly document?: unknown }).document !== "undefined"

/**
 * The token store a layer uses: the given layer, or `"cookie"` / `"memory"`, or by default the
 * browser cookie store in a browser and memory elsewhere. The cookie store reads the project id
 * from the layer's settings, and counts the `--custom-` refresh cookies of `cookieDomains` (see
 * {@link Overrides}; none by default).
 */
export const tokenStoreLayer = (
  choice: Overrides["tokenStore"],
  cookieDomains?: Overrides["cookieDomains"]
): Layer.Layer<TokenStore.TokenStore, TokenStore.TokenStoreError, StackConfig.StackConfig> =>
  typeof choice === "object"
    ? choice
    : Layer.effect(TokenStore.TokenStore, Effect.flatMap(StackConfig.StackConfig, (config) => makeTokenStore(choice, cookieDomains, config)))

/** The store of a `"cookie"` / `"memory"` / default choice, made in the current scope. */
const makeTokenStore = (
  choice: "cookie" | "memory" | undefined,
  cookieDomains: Overrides["cookieDomains"],
  config: StackConfig.StackConfigShape
): Effect.Effect<TokenStore.TokenStoreShape, TokenStore.TokenStoreError, Scope.Scope> =>
  Effect.suspend(() =>
    choice === "cookie" || (choice === undefined && inBrowser())
      ? BrowserCookieStore.make({ projectId: config.projectId, cookieDomains })
      : TokenStore.makeMemory()
  )

/**
 * A service of a layer that holds no resources (no finalizer, no state), built once per process
 * at its first use and shared by every context (the default `fetch` client, the default retry
 * policy): a context over the defaults does not rebuild them (issue 14: heap per layer).
 */
const shared = <I, S>(layer: Layer.Layer<I>, tag: Context.Key<I, S>) => {
  let built: S | undefined
  // a scope of its own, never closed (the layer holds nothing to release) and not in the build's
  // context: a client that captures its build context (FetchHttpClient) captures no scope
  return Effect.sync(() => (built ??= Context.get(Effect.runSync(Effect.flatMap(Scope.make(), (scope) => Layer.buildWithScope(layer, scope))), tag)))
}
const defaultHttpClient = shared(StackClient.layerFetch, HttpClient.HttpClient)
const defaultRetryPolicy = shared(RetryPolicy.layer, RetryPolicy.RetryPolicy)

/**
 * Whether the layer is built with a `fetch` or `RequestInit` of the app in its context (provided to
 * the layer itself): the default client is then built for this context instead of shared.
 */
const fetchSettingsGiven = Effect.map(
  Effect.context<never>(),
  (context) => Context.getOrUndefined(context, FetchHttpClient.RequestInit) !== undefined || context.mapUnsafe.has(FetchHttpClient.Fetch.key)
)

/**
 * The client services from settings and the overrides, built by one effect instead of a graph of
 * layers (each layer of a graph holds its own scope and memo entries: issue 14, heap per
 * `Stack.layerClient`). Same services, same order of construction: settings, transport, token
 * store, session, query cache. App-given layers are built into the layer's scope, memoised with
 * the rest of the app's layers.
 */
const withSession = (
  config: Effect.Effect<StackConfig.StackConfigShape, StackConfig.StackConfigError>,
  overrides: Overrides
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> =>
  Layer.fromBuildMemo((memoMap, scope) =>
    Scope.provide(
      Effect.gen(function* () {
        const buildGiven = <A, E>(layer: Layer.Layer<A, E>): Effect.Effect<Context.Context<A>, E> => Layer.buildWithMemoMap(layer, memoMap, scope)
        const settings = yield* config
        const httpClient = Context.get(
          overrides.httpClient !== undefined
            ? yield* buildGiven(overrides.httpClient)
            : (yield* fetchSettingsGiven)
            ? yield* buildGiven(StackClient.layerFetch)
            : Context.make(HttpClient.HttpClient, yield* defaultHttpClient),
          HttpClient.HttpClient
        )
        const retryPolicy = overrides.retryPolicy === undefined
          ? yield* defaultRetryPolicy
          : Context.get(yield* buildGiven(overrides.retryPolicy), RetryPolicy.RetryPolicy)
        const client = yield* StackClient.make.pipe(
          Effect.provideService(StackConfig.StackConfig, settings),
          Effect.provideService(HttpClient.HttpClient, httpClient),
          Effect.provideService(RetryPolicy.RetryPolicy, retryPolicy)
        )
        const choice = overrides.tokenStore
        const store = typeof choice === "object"
          ? Context.get(yield* buildGiven(choice), TokenStore.TokenStore)
          : yield* makeTokenStore(choice, overrides.cookieDomains, settings)
        const session = yield* Session.make.pipe(
          Effect.provideService(TokenStore.TokenStore, store),
          Effect.provideService(StackClient.StackClient, client)
        )
        const cache = yield* QueryCache.make(overrides.queryCache === false ? { enabled: false } : (overrides.queryCache ?? {})).pipe(
          Effect.provideService(Session.Session, session)
        )
        return Context.make(StackConfig.StackConfig, settings).pipe(
          Context.add(StackClient.StackClient, client),
          Context.add(TokenStore.TokenStore, store),
          Context.add(Session.Session, session),
          Context.add(QueryCache.QueryCache, cache)
        )
      }),
      scope
    )
  )

/** Client access: publishable key + the user's tokens. */
export const layerClient = (
  options: ClientOptions
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> => withSession(StackConfig.make(options), options)

/** Options of {@link layerServer}. */
export interface ServerOptions extends ClientOptions {
  readonly secretServerKey: string | Redacted.Redacted<string>
}

/**
 * The SDK's secret header names (`x-stack-auth`, `x-stack-access-token`…) added to the HTTP
 * redacted header names for the whole runtime: the app's own server tracer then records a request
 * that carries them (e.g. one authenticated by `stack-auth-effect/server`) as `<redacted>`.
 */
const redactSecretHeaders = StackClient.layerRedactHeaders(StackClient.secretHeaderNames)

/**
 * Server access: client access plus the secret server key. Also adds the SDK's secret header
 * names to the HTTP redacted header names (`Headers.CurrentRedactedNames`: the app server's request spans).
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
export type ServerAccessOf<O extends AdminOptions> = O extends { readonly secretServerKey: string | Redacted.Redacted<string> } ? ServerAccess
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
): Layer.Layer<ClientServices, StackConfig.StackConfigError | TokenStore.TokenStoreError> => withSession(StackConfig.fromConfig(), overrides)

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
