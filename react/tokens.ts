"use client"
/**
 * The signed-in user's tokens in React (the official SDK's `useAccessToken`, `useRefreshToken`,
 * `useAuthHeaders`, `useAuthJson`): each hook shows the session's tokens and re-renders when they
 * change — sign-in, sign-out, a refresh, another tab — and 20 s before the access token expires
 * (it is then refreshed, so the value shown can be sent). While the first read runs the status is
 * `"loading"`; a refresh that fails shows `"error"` with the typed error and the last tokens.
 *
 * The values reveal the tokens: send them only to your own backend over HTTPS, never log them.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { useCallback, useMemo, useSyncExternalStore } from "react"
import { Session, unverifiedClaims } from "../src/session/Session.js"
import type { RefreshError, RequestTokens } from "../src/session/Session.js"
import { authHeaderName, authorizationValue } from "../src/session/RequestTokenStore.js"
import { useBoundContext, useSuspenseQueryWith } from "./internal/hooks.js"
import type { Bound } from "./internal/hooks.js"
import { TokenObserver } from "./internal/TokenObserver.js"
import type { StackQueryResult } from "./internal/types.js"

/** The tokens as the official SDK's `getAuthJson()` gives them: `null` when absent. */
export interface AuthJson {
  readonly accessToken: string | null
  readonly refreshToken: string | null
}

const authJsonOf = (tokens: RequestTokens): AuthJson => ({
  accessToken: Option.getOrNull(Option.map(tokens.accessToken, Redacted.value)),
  refreshToken: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value))
})

/** The header `{ "x-stack-auth": JSON.stringify(authJson) }` (see `RequestTokenStore.authHeaders`). */
const authHeadersOf = (json: AuthJson): Record<string, string> => ({ [authHeaderName]: JSON.stringify(json) })

/**
 * The user an access token describes, read from its claims without a request (the official
 * SDK's `TokenPartialUser`, `getPartialUser({ from: "token" })`): a subset of the user, as fresh
 * as the token (the service puts them in the token when it mints it).
 */
export interface PartialUser {
  /** The user's id (claim `sub`). */
  readonly id: string
  /** Claim `name`. */
  readonly displayName: string | null
  /** Claim `email`. */
  readonly primaryEmail: string | null
  /** Claim `email_verified`. */
  readonly primaryEmailVerified: boolean
  /** Claim `is_anonymous`. */
  readonly isAnonymous: boolean
  /** Claim `requires_totp_mfa`. */
  readonly isMultiFactorRequired: boolean
  /** Claim `is_restricted`. */
  readonly isRestricted: boolean
  /** Claim `restricted_reason`: why the user is restricted, `null` when not. */
  readonly restrictedReason: { readonly type: "anonymous" | "email_not_verified" | "restricted_by_administrator" } | null
}

/** Options of `usePartialUser`: `"anonymous-if-exists"` shows an anonymous user, the default (`"return-null"`) gives `null` for one. */
export interface PartialUserOptions {
  readonly or?: "return-null" | "anonymous-if-exists"
}

const restrictedTypes = new Set(["anonymous", "email_not_verified", "restricted_by_administrator"])

const stringOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null)

/**
 * The partial user of an access token, as the official `_getTokenPartialUserFromSession` reads it
 * (packages/template/src/lib/stack-app/apps/implementations/client-app-impl.ts at 2f719903):
 * `null` without a token, with an expired one (`getAccessTokenIfNotExpiredYet(0)`), or with an
 * anonymous user's unless `or` is `"anonymous-if-exists"`. A token whose claims cannot be read
 * (not a JWT, no `sub`) is `null` too, never a throw.
 */
export const partialUserOf = (accessToken: string | null, options: PartialUserOptions, now: number): PartialUser | null => {
  if (accessToken === null) return null
  const claims = unverifiedClaims(accessToken)
  if (claims === undefined || typeof claims["sub"] !== "string") return null
  const exp = claims["exp"]
  if (typeof exp === "number" && exp * 1000 <= now) return null
  const isAnonymous = claims["is_anonymous"] === true
  if (isAnonymous && options.or !== "anonymous-if-exists") return null
  const reason = claims["restricted_reason"]
  const reasonType = typeof reason === "object" && reason !== null ? (reason as { readonly type?: unknown }).type : undefined
  return {
    id: claims["sub"],
    displayName: stringOrNull(claims["name"]),
    primaryEmail: stringOrNull(claims["email"]),
    primaryEmailVerified: claims["email_verified"] === true,
    isAnonymous,
    isMultiFactorRequired: claims["requires_totp_mfa"] === true,
    isRestricted: claims["is_restricted"] === true,
    restrictedReason: typeof reasonType === "string" && restrictedTypes.has(reasonType)
      ? { type: reasonType as "anonymous" | "email_not_verified" | "restricted_by_administrator" }
      : null
  }
}

/** `usePartialUser`'s implementation over a runtime (`undefined`: the nearest provider's). */
const usePartialUserWith = (bound: Bound) => (options: PartialUserOptions = {}): StackQueryResult<PartialUser | null, RefreshError> => {
  const or = options.or ?? "return-null"
  const select = useCallback((json: AuthJson) => partialUserOf(json.accessToken, { or }, Date.now()), [or])
  return useTokensWith("usePartialUser", bound, select)
}

/** The partial user of the session's tokens now (refreshed first when fewer than 20 s remain), for the Suspense form. */
const partialUserEffect = (or: "return-null" | "anonymous-if-exists") =>
  Effect.map(
    Effect.flatMap(Session, (session) => session.requestTokens),
    (tokens) => partialUserOf(authJsonOf(tokens).accessToken, { or }, Date.now())
  )

/**
 * `useSuspensePartialUser`'s implementation: a Suspense query of the session's tokens, read again
 * on sign-in and sign-out (a session change) and on `or`.
 */
const useSuspensePartialUserWith = (bound: Bound) => (options: PartialUserOptions = {}): PartialUser | null => {
  const or = options.or ?? "return-null"
  return useSuspenseQueryWith("useSuspensePartialUser", bound, partialUserEffect(or), [or])
}

/** The token hooks' implementation: the state of the session's tokens, mapped by `select`. */
export const useTokensWith = <A>(
  hook: string,
  bound: Bound,
  select: (json: AuthJson) => A
): StackQueryResult<A, RefreshError> => {
  const context = useBoundContext(hook, bound)
  const observer = useMemo(() => new TokenObserver(context.runtime, context.onError), [context.runtime, context.onError])
  const state = useSyncExternalStore(observer.subscribe, observer.getSnapshot, observer.getSnapshot)
  return useMemo(() => {
    const data = state.tokens === undefined ? undefined : select(authJsonOf(state.tokens))
    return { status: state.status, data, error: state.error, waiting: false, refetch: observer.refetch } as StackQueryResult<A, RefreshError>
  }, [state, observer, select])
}

const selectAccess = (json: AuthJson) => json.accessToken
const selectRefresh = (json: AuthJson) => json.refreshToken
const selectJson = (json: AuthJson) => json
const selectHeaders = (json: AuthJson) => authHeadersOf(json)
const selectAuthorization = authorizationValue

/** The token hooks over a runtime (`undefined`: the nearest provider's). */
export const makeTokenHooks = (bound: Bound) => ({
  /** The access token to send (refreshed when fewer than 20 s remain), `null` when signed out. */
  useAccessToken: (): StackQueryResult<string | null, RefreshError> => useTokensWith("useAccessToken", bound, selectAccess),
  /** The refresh token, `null` when signed out. */
  useRefreshToken: (): StackQueryResult<string | null, RefreshError> => useTokensWith("useRefreshToken", bound, selectRefresh),
  /** `{ accessToken, refreshToken }` (the official `getAuthJson()`), `null` members when signed out. */
  useAuthJson: (): StackQueryResult<AuthJson, RefreshError> => useTokensWith("useAuthJson", bound, selectJson),
  /**
   * `{ "x-stack-auth": … }` for a `fetch` to the app's own backend, which reads it with
   * `RequestTokenStore` or the `stack-auth-effect/server` middleware.
   */
  useAuthHeaders: (): StackQueryResult<Record<string, string>, RefreshError> => useTokensWith("useAuthHeaders", bound, selectHeaders),
  /**
   * The `Authorization` value (`Bearer stackauth_…`, the official `getAuthorizationHeader()`) for a
   * `fetch` to the app's own backend, `null` when signed out.
   */
  useAuthorizationHeader: (): StackQueryResult<string | null, RefreshError> => useTokensWith("useAuthorizationHeader", bound, selectAuthorization),
  /**
   * The signed-in user as the access token's claims describe it (see {@link PartialUser}), with
   * no request of its own; `null` when signed out or (unless `or: "anonymous-if-exists"`) anonymous.
   */
  usePartialUser: usePartialUserWith(bound),
  /** `usePartialUser` for Suspense: the partial user (or `null`), suspending while the session is first read. */
  useSuspensePartialUser: useSuspensePartialUserWith(bound)
})

/** The hooks {@link makeTokenHooks} makes. */
export type TokenHooks = ReturnType<typeof makeTokenHooks>

const generic: TokenHooks = makeTokenHooks(undefined)

/**
 * The access token to send to the app's own backend (refreshed when fewer than 20 s remain),
 * `null` when signed out; re-rendered whenever it changes.
 *
 * @example
 * ```tsx
 * import { useAccessToken } from "stack-auth-effect/react"
 *
 * const TokenLength = () => {
 *   const token = useAccessToken()
 *   return <span>{token.status === "success" && token.data !== null ? token.data.length : 0}</span>
 * }
 * ```
 */
export const useAccessToken = generic.useAccessToken

/** The refresh token, `null` when signed out; re-rendered whenever it changes. */
export const useRefreshToken = generic.useRefreshToken

/** `{ accessToken, refreshToken }` (the official `getAuthJson()`), `null` members when signed out. */
export const useAuthJson = generic.useAuthJson

/**
 * `Bearer stackauth_<base64 of the tokens' JSON>` (the official `getAuthorizationHeader()`) for the
 * `Authorization` header of a `fetch` to the app's own backend, `null` when signed out; the
 * backend reads it with `RequestTokenStore`, `ServerUsers.fromRequest` or `RequestAuth`.
 */
export const useAuthorizationHeader = generic.useAuthorizationHeader

/**
 * The signed-in user read from the access token's claims, with no request of its own (the
 * official `usePartialUser({ from: "token" })`): id, display name, primary e-mail and whether it
 * is verified, anonymous, MFA and restriction flags. `null` when signed out, and for an anonymous
 * user unless `or: "anonymous-if-exists"`. Re-rendered whenever the token changes (sign-in,
 * sign-out, a refresh); the full user is `useUser()`.
 *
 * @example
 * ```tsx
 * import { usePartialUser } from "stack-auth-effect/react"
 *
 * const Avatar = () => {
 *   const user = usePartialUser()
 *   if (user.status !== "success" || user.data === null) return null
 *   return <span title={user.data.primaryEmail ?? ""}>{user.data.displayName ?? "?"}</span>
 * }
 * ```
 */
export const usePartialUser = generic.usePartialUser

/** {@link usePartialUser} for Suspense: the partial user or `null`; a failed refresh goes to the error boundary. */
export const useSuspensePartialUser = generic.useSuspensePartialUser

/**
 * `{ "x-stack-auth": JSON.stringify({ accessToken, refreshToken }) }` for a `fetch` to the app's
 * own backend (never to another site).
 *
 * @example
 * ```tsx
 * import { useAuthHeaders } from "stack-auth-effect/react"
 *
 * const LoadOrders = () => {
 *   const headers = useAuthHeaders()
 *   const load = () => headers.status === "success" ? fetch("/api/orders", { headers: headers.data }) : undefined
 *   return <button onClick={() => void load()}>Load</button>
 * }
 * ```
 */
export const useAuthHeaders = generic.useAuthHeaders
