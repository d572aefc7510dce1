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
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { useMemo, useSyncExternalStore } from "react"
import type { RefreshError, RequestTokens } from "../src/session/Session.js"
import { authHeaderName, authorizationValue } from "../src/session/RequestTokenStore.js"
import { useBoundContext } from "./internal/hooks.js"
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
  useAuthorizationHeader: (): StackQueryResult<string | null, RefreshError> => useTokensWith("useAuthorizationHeader", bound, selectAuthorization)
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
