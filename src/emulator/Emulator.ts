/**
 * The local emulator of the hosted service: in memory, answering requests as the service does. One
 * implementation, `handle(request) → Effect<Response>` (time from Effect's `Clock`, so tests drive
 * expiry with `TestClock`), served by three adapters: an in-process `HttpClient` layer
 * (`layerHttpClient`), msw handlers (`mswHandlers`) and a Node HTTP server (`./server.js`).
 *
 * The core uses WebCrypto only (no `node:` imports), so it also runs in a browser under msw.
 *
 * Browser pages (see `BrowserAccess.ts`): the API answers with the service's permissive CORS
 * (`access-control-allow-origin: *`), except its privileged surface — the outbox and the other
 * `/api/v1/emulator/*` pages, and admin access (admin access type, super-secret admin key or admin
 * access token). That surface answers only callers without an `Origin` header (Node, curl, the
 * in-process client) and pages on a loopback origin (`http://localhost:*`, `http://127.x.x.x:*`,
 * `http://[::1]:*`) or on the emulator's own origin; any other page gets a 403 text without CORS
 * headers (its preflight too), so a web site you visit cannot read e-mailed codes or use the
 * well-known default admin keys of an emulator running on your machine.
 *
 * Hostile input: request bodies over `maxRequestBodyBytes` (1 MiB by default) are answered 413
 * (text) without being kept; JSON nested more than 100 levels is a `SCHEMA_ERROR`; the issuer of
 * tokens and the OAuth URLs come from `baseUrl` or the request URL (which the Node server builds
 * on its fixed base, never on `Host`).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import * as Emulator from "stack-auth-effect/emulator"
 *
 * const program = Effect.gen(function* () {
 *   const emulator = yield* Emulator.make()
 *   const response = yield* emulator.handle(new Request("http://localhost/api/v1"))
 *   console.log(response.status, emulator.demo.projectId)
 * })
 * ```
 *
 * @module
 */
import { Cause, Clock, Context, Data, Effect } from "effect"
import { generateSigningKeys } from "./AccessTokens.js"
import { defaults } from "./Defaults.js"
import type { DemoSwitches, SeededUser } from "./Defaults.js"
import type { OutboxEntry, OutboxFilter } from "./Outbox.js"
import * as Outbox from "./Outbox.js"
import { demoOAuthProviders } from "./OAuthProvider.js"
import { isUuid, randomRequestId, randomToken45, randomUuid } from "./Random.js"
import type { EmulatorEnv, Settings } from "./RequestContext.js"
import type { SmtpProbe } from "./SmtpProbe.js"
import {
  blockedHostText,
  foreignOriginText,
  isAllowedHost,
  isAllowedOrigin,
  isPrivilegedPreflight,
  isPrivilegedRequest,
  ownHostNames
} from "./BrowserAccess.js"
import { finalize, internalErrorText, textResponse } from "./Responses.js"
import * as Router from "./Router.js"
import { untrustedUrlHint } from "./TrustedUrls.js"
import { allRoutes } from "./routes/index.js"
import type { EmulatorState, ProjectConfig, ProjectRecord } from "./State.js"
import { defaultProjectConfig, makeUser } from "./State.js"
import { grantTeamDefaults } from "./Permissions.js"
import { makeProject, makeState, serialized } from "./Store.js"
import { hashPassword } from "./Passwords.js"
import { defaultRenderLimits } from "./rendering/Limits.js"

/** How to create a project. Every field has a default (random id and keys, {@link defaultProjectConfig}). */
export interface ProjectOptions {
  /** `internal` or a uuid; default a random uuid. */
  readonly id?: string
  readonly displayName?: string
  readonly description?: string
  /** `pck_…`; default random. */
  readonly publishableClientKey?: string
  /** `ssk_…`; default random. */
  readonly secretServerKey?: string
  /** `sak_…`; default random. */
  readonly superSecretAdminKey?: string
  /** Client requests must carry the publishable key (default false, as for projects created since Feb 2026). */
  readonly requiresPublishableClientKey?: boolean
  /** Config switches; omitted ones take {@link defaultProjectConfig}'s values. */
  readonly config?: Partial<ProjectConfig>
  /** Users of the `internal` project whose admin access tokens manage this project. */
  readonly ownerUserIds?: ReadonlyArray<string>
  /** A team of the `internal` project whose members own this project (`owner_team_id`); default none. */
  readonly ownerTeamId?: string
  /**
   * Lifetime of this project's access tokens, in seconds (a positive integer); default the
   * emulator's {@link EmulatorOptions.accessTokenLifetimeSeconds}. The development service issues
   * 60 s tokens: set 60 (or less) to exercise an app's refresh path.
   */
  readonly accessTokenLifetimeSeconds?: number
}

/** A user to create at start; `displayName` defaults to none. */
export interface SeedUserOptions {
  readonly email: string
  readonly password: string
  readonly displayName?: string
}

/**
 * The demo project: a {@link ProjectOptions} whose config switches default to
 * `defaults.demoConfig` (every sign-in method, client team creation, client user deletion, user
 * and team API keys) instead of a new project's, and its demo user.
 */
export interface DemoProjectOptions extends ProjectOptions {
  /**
   * The user created at start (a verified e-mail with password sign-in, as `POST /users` with
   * server access creates it): default `defaults.demoUser` (`demo@example.com` /
   * `demo-password-1234`); `false`: none.
   */
  readonly user?: SeedUserOptions | false
}

/**
 * The demo project as the service creates a project: no demo user; sign-up, password sign-in and
 * localhost on; magic link, passkeys, client team creation, client user deletion and API keys off
 * (`Emulator.make({ demo: blankDemo })`; spread it to add switches:
 * `{ demo: { ...blankDemo, config: { ...blankDemo.config, magicLinkEnabled: true } } }`).
 */
export const blankDemo = {
  user: false,
  config: {
    magicLinkEnabled: false,
    passkeyEnabled: false,
    clientTeamCreationEnabled: false,
    clientUserDeletionEnabled: false,
    allowUserApiKeys: false,
    allowTeamApiKeys: false
  }
} as const satisfies DemoProjectOptions

/** What the demo project was seeded with: its switches, trusted domains and demo user. */
export interface DemoSeed {
  /** The demo user (`undefined` when seeded without one). */
  readonly user: SeededUser | undefined
  /** The demo project's switches at start. */
  readonly config: DemoSwitches
  /** The demo project's trusted domains at start (besides localhost when `allowLocalhost`). */
  readonly trustedDomains: ReadonlyArray<string>
}

/** The id and keys of a project, for configuring a client. */
export interface ProjectCredentials {
  readonly projectId: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
  readonly superSecretAdminKey: string
}

/** Options of {@link make}. */
export interface EmulatorOptions {
  /**
   * The API base written into token issuers and OAuth URLs, e.g. `http://127.0.0.1:8102` (an
   * `http(s)` URL). Default: the origin of each request's URL — the URL the SDK was configured
   * with in process and under msw; the Node server (`serve`) builds request URLs on its own fixed
   * base (its listen address or `ServeOptions.baseUrl`), never on the `Host` header.
   */
  readonly baseUrl?: string
  /** The largest request body read, in bytes (default 1 MiB, `defaults.maxRequestBodyBytes`); longer → 413. */
  readonly maxRequestBodyBytes?: number
  /**
   * The URL of an external OAuth 2.0 / OpenID Connect server that every OAuth provider's
   * authorize, token and userinfo calls go to, as the service does with `STACK_OAUTH_MOCK_URL`
   * (CLI `--oauth-mock-url`, or that environment variable): discovery at
   * `{url}/.well-known/openid-configuration`, client id the provider's kind (`github`…), client
   * secret `MOCK-SERVER-SECRET`, scope `openid offline_access`, PKCE S256, a real code exchange
   * over HTTP (the id token checked with the server's JWKS), the account read from its userinfo
   * (`sub` is the account id and the e-mail). Default: the emulator's in-process mock provider.
   */
  readonly oauthMockUrl?: string
  /**
   * Every passkey ceremony's challenge is the UTF-8 bytes of `MOCK` (base64url `TU9DSw`), as the
   * service does with `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING` (CLI
   * `--hardcoded-passkey-challenge`, or that environment variable), so recorded authenticator
   * answers replay. Default false: a random 32-byte challenge.
   */
  readonly hardcodedPasskeyChallenge?: boolean
  /**
   * Lifetime of access tokens in seconds, for every project without its own
   * ({@link ProjectOptions.accessTokenLifetimeSeconds}); default 600 s, the production service's
   * default. The development service issues 60 s tokens.
   */
  readonly accessTokenLifetimeSeconds?: number
  /**
   * Artificial 429 answers, as the development service sends to exercise clients' retry handling
   * (off by default): see {@link ChaosRateLimitOptions}.
   */
  readonly chaosRateLimit?: ChaosRateLimitOptions
  /** PBKDF2 iterations for new password hashes (default 10 000; see `defaults`). */
  readonly passwordHashIterations?: number
  /**
   * How `POST /internal/send-test-email` checks the SMTP server it is given;
   * the Node server (`serve`) uses a TCP connection by default. Without one, the test e-mail goes
   * straight into the outbox.
   */
  readonly smtpProbe?: SmtpProbe
  /**
   * Bounds of one e-mail rendering (templates run in a worker thread, as the service runs them in a
   * sandbox): `timeoutMillis` (default 10 000) and `maxMemoryMb` (the worker's heap, default 512);
   * a rendering past either fails with EMAIL_RENDERING_ERROR. CLI `--email-render-timeout <ms>`,
   * `--email-render-memory <MB>`.
   */
  readonly emailRendering?: { readonly timeoutMillis?: number; readonly maxMemoryMb?: number }
  /**
   * The demo project (id, keys, config switches, demo user); default the demo experience of
   * `defaults.demoConfig` and `defaults.demoUser`, {@link blankDemo} for a project as the service
   * creates it. Trust your app's domain with `config: { domains: [{ domain: "https://app.example.com", handlerPath: "/handler" }] }`.
   */
  readonly demo?: DemoProjectOptions
  /** Overrides of the internal project (its id stays `internal`). */
  readonly internal?: Omit<ProjectOptions, "id">
  /** More projects to create. */
  readonly projects?: ReadonlyArray<ProjectOptions>
}

/**
 * Artificial rate limiting (`EmulatorOptions.chaosRateLimit`, CLI `--chaos-rate-limit <rate>
 * [--chaos-seed <n>]`): each API request is answered, with probability `rate`, by a 429 with a
 * text body and no known-error header, half of them (by the same draw) with `Retry-After: 1` —
 * as the development service's bursts. Pre-flights, the emulator's own pages (`/api/v1/emulator/*`)
 * and the welcome page `GET /api/v1` are never refused. With `seed`, the draws are a fixed
 * sequence (one draw per request that could be refused), so a test can count the 429s.
 */
export interface ChaosRateLimitOptions {
  /** Probability of a 429 per request, from 0 (never) to 1 (always). */
  readonly rate: number
  /** Seed of the draws (an integer); default: `Math.random`. */
  readonly seed?: number
}

/** The 429 text of an artificial rate limit. */
export const chaosRateLimitText =
  "Too many requests: artificial rate limiting of the emulator (EmulatorOptions.chaosRateLimit / --chaos-rate-limit), as the development service injects. Retry later."

/** A seeded generator of numbers in [0, 1) (mulberry32): the same seed gives the same sequence. */
const seededRandom = (seed: number): () => number => {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** A project could not be created (duplicate or malformed id, empty key). */
export class EmulatorError extends Data.TaggedError("EmulatorError")<{ readonly message: string }> {}

/** A running emulator. */
export interface Emulator {
  /**
   * Answers one request to the API (never fails: unexpected failures become a 500). Time comes
   * from `Clock`. It does not look at the `Host` header (the in-process client and the msw
   * handlers answer requests addressed to the real service's URL): to mount the emulator in a
   * server of your own, use {@link handleWithHostCheck}.
   */
  readonly handle: (request: Request) => Effect.Effect<Response>
  /** The in-memory state (read it in tests; change it through the API). */
  readonly state: EmulatorState
  readonly settings: Settings
  /** The demo project's credentials. */
  readonly demo: ProjectCredentials
  /** What the demo project was seeded with (demo user, switches, trusted domains). */
  readonly demoSeed: DemoSeed
  /** The internal project's credentials. */
  readonly internal: ProjectCredentials
  /** Creates a project with the given id and keys (defaults for what is omitted). */
  readonly createProject: (options?: ProjectOptions) => Effect.Effect<ProjectCredentials, EmulatorError>
  /** The credentials of a project (its first key set), if it exists. */
  readonly credentials: (projectId: string) => ProjectCredentials | undefined
  /** E-mails the emulator "sent", oldest first. */
  readonly outbox: (filter?: OutboxFilter) => ReadonlyArray<OutboxEntry>
  /** The newest e-mail matching a filter. */
  readonly latestEmail: (filter?: OutboxFilter) => OutboxEntry | undefined
}

/** An emulator in the context (for layers that share one). */
export class CurrentEmulator extends Context.Service<CurrentEmulator, Emulator>()("stack-auth-effect/emulator/CurrentEmulator") {}

const credentialsOf = (project: ProjectRecord): ProjectCredentials => {
  // a project created through the API has no key set until its owners create one
  const keys = project.keys[0] ?? { publishableClientKey: undefined, secretServerKey: undefined, superSecretAdminKey: undefined }
  return {
    projectId: project.id,
    publishableClientKey: keys.publishableClientKey ?? "",
    secretServerKey: keys.secretServerKey ?? "",
    superSecretAdminKey: keys.superSecretAdminKey ?? ""
  }
}

const isHttpUrl = (text: string): boolean => {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}

const overrideHeaderNames = ["x-stack-override-error-status", "x-hexclave-override-error-status"]

/**
 * Seeds the owner of the demo project (`defaults.internalOwner`): a password user of the `internal`
 * project and the team "Demo Team" holding it, made the demo project's owner team (unless the
 * options gave the demo project another one).
 */
const seedInternalOwner = (state: EmulatorState, iterations: number, demoProjectId: string): Effect.Effect<void> =>
  Effect.gen(function* () {
    const internal = state.projects.get(defaults.internal.projectId)
    if (internal === undefined) return
    const owner = defaults.internalOwner
    const nowMillis = yield* Clock.currentTimeMillis
    const user = makeUser(owner.userId, nowMillis)
    user.displayName = owner.displayName
    user.primaryEmail = owner.email
    user.primaryEmailVerified = true
    user.primaryEmailAuthEnabled = true
    user.passwordHash = yield* hashPassword(owner.password, iterations)
    user.selectedTeamId = owner.teamId
    internal.users.set(user.id, user)
    internal.teams.set(owner.teamId, {
      id: owner.teamId,
      displayName: owner.teamDisplayName,
      createdAtMillis: nowMillis,
      memberUserIds: new Set([user.id])
    })
    // the team's creator, as on the service: its default creator permissions (`team_admin`, needed to transfer the demo project)
    grantTeamDefaults(internal, owner.teamId, user.id, "creator")
    const demo = state.projects.get(demoProjectId)
    if (demo !== undefined && (demo.ownerTeamId ?? null) === null) demo.ownerTeamId = owner.teamId
  })

/**
 * Creates a user of a project through the API (`POST /api/v1/users` with server access, so the
 * user is what the service would hold: default permissions, personal team when the project
 * creates one). Fails with `EmulatorError` carrying the answer (e.g. a password under 8 characters).
 */
const seedUser = (
  handle: (request: Request) => Effect.Effect<Response>,
  settings: Settings,
  project: ProjectCredentials,
  user: SeededUser
): Effect.Effect<void, EmulatorError> =>
  Effect.gen(function* () {
    const request = new Request(`${settings.baseUrl ?? "http://localhost"}/api/v1/users`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": project.projectId,
        "x-stack-access-type": "server",
        "x-stack-secret-server-key": project.secretServerKey
      },
      body: JSON.stringify({
        primary_email: user.email,
        primary_email_verified: true,
        primary_email_auth_enabled: true,
        password: user.password,
        ...(user.displayName === "" ? {} : { display_name: user.displayName })
      })
    })
    const response = yield* handle(request)
    if (response.ok) return
    const text = yield* Effect.promise(() => response.text())
    return yield* Effect.fail(new EmulatorError({ message: `The demo user ${user.email} could not be created: ${response.status} ${text}` }))
  })

/**
 * Builds an emulator with the internal and demo projects seeded (see `defaults`): the demo
 * project with `defaults.demoConfig`'s switches and the demo user `defaults.demoUser`, unless
 * `options.demo` says otherwise ({@link blankDemo}: a project as the service creates it).
 */
export const make = (options: EmulatorOptions = {}): Effect.Effect<Emulator, EmulatorError> =>
  Effect.gen(function* () {
    const state = makeState()
    const baseUrl = options.baseUrl?.replace(/\/+$/, "")
    if (baseUrl !== undefined && !isHttpUrl(baseUrl)) {
      return yield* Effect.fail(new EmulatorError({ message: `baseUrl must be an http(s) URL, got "${options.baseUrl}".` }))
    }
    const maxRequestBodyBytes = options.maxRequestBodyBytes ?? defaults.maxRequestBodyBytes
    if (!Number.isSafeInteger(maxRequestBodyBytes) || maxRequestBodyBytes < 0) {
      return yield* Effect.fail(new EmulatorError({ message: `maxRequestBodyBytes must be a non-negative integer, got ${maxRequestBodyBytes}.` }))
    }
    const lifetime = options.accessTokenLifetimeSeconds
    if (lifetime !== undefined && !(Number.isSafeInteger(lifetime) && lifetime > 0)) {
      return yield* Effect.fail(new EmulatorError({ message: `accessTokenLifetimeSeconds must be a positive integer, got ${lifetime}.` }))
    }
    if (options.oauthMockUrl !== undefined && !isHttpUrl(options.oauthMockUrl)) {
      return yield* Effect.fail(new EmulatorError({ message: `oauthMockUrl must be an http(s) URL, got "${options.oauthMockUrl}".` }))
    }
    const chaos = options.chaosRateLimit
    if (chaos !== undefined && !(chaos.rate >= 0 && chaos.rate <= 1)) {
      return yield* Effect.fail(new EmulatorError({ message: `chaosRateLimit.rate must be between 0 and 1, got ${chaos.rate}.` }))
    }
    if (chaos?.seed !== undefined && !Number.isSafeInteger(chaos.seed)) {
      return yield* Effect.fail(new EmulatorError({ message: `chaosRateLimit.seed must be an integer, got ${chaos.seed}.` }))
    }
    const renderLimits = {
      timeoutMillis: options.emailRendering?.timeoutMillis ?? defaultRenderLimits.timeoutMillis,
      maxMemoryMb: options.emailRendering?.maxMemoryMb ?? defaultRenderLimits.maxMemoryMb
    }
    if (
      !(Number.isSafeInteger(renderLimits.timeoutMillis) && renderLimits.timeoutMillis > 0 && Number.isSafeInteger(renderLimits.maxMemoryMb) &&
        renderLimits.maxMemoryMb > 0)
    ) {
      return yield* Effect.fail(new EmulatorError({ message: "emailRendering.timeoutMillis and emailRendering.maxMemoryMb must be positive integers." }))
    }
    const chaosDraw = chaos === undefined || chaos.rate === 0 ? undefined : chaos.seed === undefined ? Math.random : seededRandom(chaos.seed)
    const settings: Settings = {
      baseUrl,
      maxRequestBodyBytes,
      accessTokenLifetimeSeconds: options.accessTokenLifetimeSeconds ?? defaults.accessTokenLifetimeSeconds,
      passwordHashIterations: options.passwordHashIterations ?? defaults.passwordHashIterations,
      refreshTokenLifetimeMillis: defaults.refreshTokenLifetimeMillis,
      emailCodeLifetimeMillis: defaults.emailCodeLifetimeMillis,
      mfaAttemptLifetimeMillis: defaults.mfaAttemptLifetimeMillis,
      smtpProbe: options.smtpProbe,
      emailRenderLimits: renderLimits,
      oauthMockUrl: options.oauthMockUrl,
      hardcodedPasskeyChallenge: options.hardcodedPasskeyChallenge === true
    }
    const env: EmulatorEnv = { state, settings }
    const router = Router.make(allRoutes)

    const createProject = (projectOptions: ProjectOptions = {}): Effect.Effect<ProjectCredentials, EmulatorError> =>
      Effect.gen(function* () {
        const id = projectOptions.id ?? randomUuid()
        if (id !== "internal" && !isUuid(id)) {
          return yield* Effect.fail(new EmulatorError({ message: `Project id must be "internal" or a lowercase uuid, got "${id}".` }))
        }
        if (state.projects.has(id)) return yield* Effect.fail(new EmulatorError({ message: `Project ${id} already exists.` }))
        const projectLifetime = projectOptions.accessTokenLifetimeSeconds
        if (projectLifetime !== undefined && !(Number.isSafeInteger(projectLifetime) && projectLifetime > 0)) {
          return yield* Effect.fail(new EmulatorError({ message: `accessTokenLifetimeSeconds must be a positive integer, got ${projectLifetime}.` }))
        }
        for (const key of [projectOptions.publishableClientKey, projectOptions.secretServerKey, projectOptions.superSecretAdminKey]) {
          if (key === "") return yield* Effect.fail(new EmulatorError({ message: "Project keys must not be empty." }))
        }
        const nowMillis = yield* Clock.currentTimeMillis
        const signingKeys = yield* generateSigningKeys
        const project = makeProject({
          id,
          displayName: projectOptions.displayName ?? "Emulated Project",
          description: projectOptions.description ?? "",
          createdAtMillis: nowMillis,
          requiresPublishableClientKey: projectOptions.requiresPublishableClientKey ?? false,
          config: { ...defaultProjectConfig, ...projectOptions.config },
          keys: [
            {
              id: randomUuid(),
              description: "Default keys",
              publishableClientKey: projectOptions.publishableClientKey ?? `pck_${randomToken45()}`,
              secretServerKey: projectOptions.secretServerKey ?? `ssk_${randomToken45()}`,
              superSecretAdminKey: projectOptions.superSecretAdminKey ?? `sak_${randomToken45()}`,
              createdAtMillis: nowMillis,
              expiresAtMillis: undefined,
              revokedAtMillis: undefined
            }
          ],
          signingKeys,
          ownerUserIds: projectOptions.ownerUserIds ?? [],
          ownerTeamId: projectOptions.ownerTeamId ?? null,
          ...(projectLifetime !== undefined ? { accessTokenLifetimeSeconds: projectLifetime } : {})
        })
        state.projects.set(id, project)
        return credentialsOf(project)
      }).pipe((effect) => serialized(state, effect))

    const internal = yield* createProject({
      id: defaults.internal.projectId,
      displayName: defaults.internal.displayName,
      publishableClientKey: defaults.internal.publishableClientKey,
      secretServerKey: defaults.internal.secretServerKey,
      superSecretAdminKey: defaults.internal.superSecretAdminKey,
      ...options.internal,
      config: { ...defaults.internalConfig, ...options.internal?.config }
    })
    const { user: demoUserOption, ...demoProjectOptions } = options.demo ?? {}
    const demo = yield* createProject({
      id: defaults.demo.projectId,
      displayName: defaults.demo.displayName,
      publishableClientKey: defaults.demo.publishableClientKey,
      secretServerKey: defaults.demo.secretServerKey,
      superSecretAdminKey: defaults.demo.superSecretAdminKey,
      ...demoProjectOptions,
      config: {
        ...defaults.demoConfig,
        domains: [],
        oauthProviders: demoOAuthProviders,
        ...demoProjectOptions.config
      }
    })
    for (const project of options.projects ?? []) yield* createProject(project)
    yield* seedInternalOwner(state, settings.passwordHashIterations, demo.projectId)

    // `withChaos`: the artificial 429s apply (not to the emulator's own seeding requests)
    const answer = (request: Request, withChaos: boolean): Effect.Effect<Response> =>
      Effect.suspend(() => {
        const requestId = randomRequestId()
        const overrideRequested = overrideHeaderNames.some((name) => request.headers.has(name))
        return Effect.gen(function* () {
          // browser pages: the outbox and admin access only for loopback origins (BrowserAccess.ts)
          const { pathname: requestPath, origin: requestOrigin } = new URL(request.url)
          // `/api/latest/*` is the service's alias of `/api/v1/*`: checked as the path it stands for
          const pathname = Router.canonicalApiPath(requestPath)
          const origin = request.headers.get("origin")
          const allowed = isAllowedOrigin(origin, settings.baseUrl === undefined ? requestOrigin : new URL(settings.baseUrl).origin)
          const refuse = (overrideErrorStatus: boolean) =>
            finalize(textResponse(403, foreignOriginText(origin ?? "")), { requestId, overrideErrorStatus, allowOrigin: null })
          if (request.method.toUpperCase() === "OPTIONS") {
            const privileged = isPrivilegedPreflight(pathname, request.headers)
            if (privileged && !allowed) return refuse(false)
            return finalize(new Response(null, { status: 200 }), {
              requestId,
              overrideErrorStatus: false,
              allowOrigin: privileged ? origin : "*"
            })
          }
          const privileged = isPrivilegedRequest(pathname, request.headers)
          if (privileged && !allowed) return refuse(overrideRequested)
          if (withChaos && chaosDraw !== undefined && chaos !== undefined && pathname !== "/api/v1" && !pathname.startsWith("/api/v1/emulator/")) {
            const draw = chaosDraw()
            if (draw < chaos.rate) {
              // about half of the bursts carry Retry-After, as on the development service
              const retryAfter = draw < chaos.rate / 2 ? { "retry-after": "1" } : undefined
              return finalize(textResponse(429, chaosRateLimitText, retryAfter), {
                requestId,
                overrideErrorStatus: overrideRequested,
                allowOrigin: privileged ? origin : "*"
              })
            }
          }
          const nowMillis = yield* Clock.currentTimeMillis
          const dispatched = yield* router.dispatch(request, { env, nowMillis, requestId })
          if (dispatched.response.headers.get("x-stack-known-error") === "REDIRECT_URL_NOT_WHITELISTED") {
            const projectId = request.headers.get("x-stack-project-id") ?? new URL(request.url).searchParams.get("client_id")
            yield* Effect.logWarning(
              untrustedUrlHint({ method: request.method.toUpperCase(), path: pathname }, projectId === null ? undefined : state.projects.get(projectId))
            )
          }
          return finalize(dispatched.response, {
            requestId,
            overrideErrorStatus: overrideRequested && dispatched.route?.options.overrideErrorStatus !== false,
            allowOrigin: privileged ? origin : "*"
          })
        }).pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause)
              ? Effect.failCause(cause as Cause.Cause<never>)
              : Effect.logError("stack-auth-effect emulator: unexpected failure", cause).pipe(
                Effect.as(finalize(textResponse(500, internalErrorText(requestId)), { requestId, overrideErrorStatus: false }))
              )
          )
        )
      })

    const handle = (request: Request): Effect.Effect<Response> => answer(request, true)

    const demoUser: SeededUser | undefined = demoUserOption === false
      ? undefined
      : demoUserOption === undefined
      ? defaults.demoUser
      : { email: demoUserOption.email, password: demoUserOption.password, displayName: demoUserOption.displayName ?? "" }
    if (demoUser !== undefined) yield* seedUser((request) => answer(request, false), settings, demo, demoUser)
    const demoConfig = state.projects.get(demo.projectId)!.config

    return {
      handle,
      state,
      settings,
      demo,
      demoSeed: {
        user: demoUser,
        config: {
          signUpEnabled: demoConfig.signUpEnabled,
          credentialEnabled: demoConfig.credentialEnabled,
          magicLinkEnabled: demoConfig.magicLinkEnabled,
          passkeyEnabled: demoConfig.passkeyEnabled,
          clientTeamCreationEnabled: demoConfig.clientTeamCreationEnabled,
          clientUserDeletionEnabled: demoConfig.clientUserDeletionEnabled,
          allowUserApiKeys: demoConfig.allowUserApiKeys,
          allowTeamApiKeys: demoConfig.allowTeamApiKeys,
          allowLocalhost: demoConfig.allowLocalhost
        },
        trustedDomains: demoConfig.domains.map((domain) => domain.domain)
      },
      internal,
      createProject,
      credentials: (projectId) => {
        const project = state.projects.get(projectId)
        return project === undefined ? undefined : credentialsOf(project)
      },
      outbox: (filter) => Outbox.list(state, filter),
      latestEmail: (filter) => Outbox.latest(state, filter)
    }
  })

/** Options of {@link handleWithHostCheck}. */
export interface HostCheckOptions {
  /**
   * More host names the handler answers to (e.g. `emulator` for `http://emulator:8102` in a
   * container network), besides `localhost`, names under `.localhost`, IP addresses and the host
   * of the emulator's `baseUrl`; any port. A name or an `http(s)` URL whose host is taken; text
   * that is neither matches nothing.
   */
  readonly allowedHosts?: ReadonlyArray<string> | undefined
}

/** The 403 text of a request whose `Host` is not one of the mounted emulator's names. */
export const foreignHostHandlerText = (host: string): string =>
  blockedHostText(
    host,
    "localhost, a name under .localhost, an IP address or the host of its baseUrl",
    "pass it in allowedHosts (handleWithHostCheck(emulator, { allowedHosts }))"
  )

/**
 * `emulator.handle` for a server of your own (a Node, Bun or Deno server, a framework's route
 * handler): a request whose `Host` is not `localhost`, a name under `.localhost`, an IP address,
 * the host of the emulator's `baseUrl` or one of `allowedHosts` is answered 403 (plain text)
 * before any route runs, as the emulator's own Node server does. Without this, a web page that
 * reaches the server through DNS rebinding (its own name, now pointing at 127.0.0.1) could read
 * the outbox and use the default admin keys. The `Host` is the request's `host` header, else the
 * host of its URL (which servers build from that header).
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import * as Emulator from "stack-auth-effect/emulator"
 *
 * const program = Effect.gen(function* () {
 *   const emulator = yield* Emulator.make()
 *   const handle = Emulator.handleWithHostCheck(emulator, { allowedHosts: ["emulator"] })
 *   // in your server's request handler:
 *   const answer = (request: Request) => Effect.runPromise(handle(request))
 * })
 * ```
 */
export const handleWithHostCheck = (emulator: Emulator, options: HostCheckOptions = {}): (request: Request) => Effect.Effect<Response> => {
  // a text that is neither a name nor a URL matches nothing
  const ownNames = ownHostNames([...(emulator.settings.baseUrl === undefined ? [] : [emulator.settings.baseUrl]), ...(options.allowedHosts ?? [])]).names
  return (request) =>
    Effect.suspend(() => {
      let host = request.headers.get("host") ?? undefined
      if (host === undefined) {
        try {
          host = new URL(request.url).host
        } catch {
          host = ""
        }
      }
      return isAllowedHost(host, ownNames)
        ? emulator.handle(request)
        : Effect.succeed(new Response(foreignHostHandlerText(host), { status: 403, headers: { "content-type": "text/plain; charset=utf-8" } }))
    })
}
