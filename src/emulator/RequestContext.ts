/**
 * What a route handler sees besides its decoded input: the request, the time of the request
 * (from Effect's `Clock`), the resolved project authentication, the emulator's state and settings,
 * and helpers for the errors most handlers raise.
 *
 * @module
 */
import { Effect } from "effect"
import { CannotGetOwnUserWithoutUser, SchemaError } from "../core/KnownErrors.js"
import type { Auth, HeaderReader } from "./ProjectAuth.js"
import type { SmtpProbe } from "./SmtpProbe.js"
import type { EmulatorState, ProjectRecord, UserRecord } from "./State.js"
import type { RenderLimits } from "./rendering/Limits.js"

/** Settings of an emulator instance. */
export interface Settings {
  /**
   * The API base used in token issuers, OAuth URLs and the emulator's own origin; undefined = the
   * origin of each request's URL (the Node server builds that URL on its fixed base, never from
   * the `Host` header).
   */
  readonly baseUrl: string | undefined
  readonly accessTokenLifetimeSeconds: number
  readonly passwordHashIterations: number
  readonly refreshTokenLifetimeMillis: number
  readonly emailCodeLifetimeMillis: number
  readonly mfaAttemptLifetimeMillis: number
  /** The largest request body read, in bytes (longer: 413). */
  readonly maxRequestBodyBytes: number
  /** Checks SMTP servers for `POST /internal/send-test-email`; undefined: no check (see `SmtpProbe.ts`). */
  readonly smtpProbe: SmtpProbe | undefined
  /** The time and memory bounds of one e-mail rendering (`EmulatorOptions.emailRendering`). */
  readonly emailRenderLimits: RenderLimits
  /**
   * The service's `STACK_OAUTH_MOCK_URL`: an external OpenID Connect server every OAuth provider's
   * authorize, token and userinfo calls go to (see `ExternalOAuthProvider.ts`); undefined: the
   * in-process mock provider.
   */
  readonly oauthMockUrl?: string | undefined
  /** The service's `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING`: every passkey challenge is the bytes of `MOCK`. */
  readonly hardcodedPasskeyChallenge?: boolean | undefined
}

/** The state and settings routes work on. */
export interface EmulatorEnv {
  readonly state: EmulatorState
  readonly settings: Settings
}

/** The context of one request. */
export interface RequestContext {
  readonly request: Request
  readonly url: URL
  /** Upper-case method. */
  readonly method: string
  /** The path as schema-error messages show it, e.g. `/api/v1/users/me` (no query). */
  readonly path: string
  /** The API base (`http://127.0.0.1:8102`): issuer of tokens, base of links. */
  readonly apiBase: string
  /** The request's time from `Clock`, in milliseconds. */
  readonly nowMillis: number
  readonly requestId: string
  /** Reads an `x-stack-…` / `x-hexclave-…` header by its name without prefix. */
  readonly header: HeaderReader
  /** The resolved project authentication (`null` without an access type). */
  readonly auth: Auth | null
  readonly env: EmulatorEnv
}

/**
 * A SCHEMA_ERROR with the service's message: `Request validation failed on {METHOD} {path}:` and
 * one `  - ` bullet per problem, the lines inside a problem (a printed object) indented by two
 * more spaces, as the service's `deindent` template writes it (`apps/backend/src/route-handlers/
 * smart-request.tsx` and `packages/stack-shared/src/utils/strings.tsx` at 2f719903).
 */
export const schemaError = (context: Pick<RequestContext, "method" | "path">, problems: ReadonlyArray<string>) => {
  const message = `Request validation failed on ${context.method} ${context.path}:\n  ${problems.map((p) => `- ${p}`).join("\n").replaceAll("\n", "\n  ")}`
  return SchemaError.make({ message })
}

/** The project of an authenticated request (routes that need auth only run with one). */
export const projectOf = (context: RequestContext): ProjectRecord => {
  if (context.auth === null) throw new Error("emulator: route needs project authentication")
  return context.auth.project
}

/** The signed-in user addressed as `me`, or CANNOT_GET_OWN_USER_WITHOUT_USER. */
export const requireMe = (context: RequestContext): Effect.Effect<UserRecord, CannotGetOwnUserWithoutUser> =>
  context.auth?.user !== undefined ? Effect.succeed(context.auth.user) : Effect.fail(CannotGetOwnUserWithoutUser.make({}))

/** The signed-in user of a route that needs one; the service answers SCHEMA_ERROR without (PROTOCOL.md §1.3). */
export const requireUser = (context: RequestContext) =>
  context.auth?.user !== undefined
    ? Effect.succeed(context.auth.user)
    : Effect.fail(schemaError(context, ["auth.user must be defined"]))

/** Resolves `me` to the signed-in user's id (CANNOT_GET_OWN_USER_WITHOUT_USER without one); other ids pass through. */
export const resolveUserId = (context: RequestContext, userId: string): Effect.Effect<string, CannotGetOwnUserWithoutUser> =>
  userId === "me" ? Effect.map(requireMe(context), (user) => user.id) : Effect.succeed(userId)
