/**
 * stack-auth-effect/next: helpers for server rendering in a framework (structural types, no
 * dependency on the framework):
 *
 * - {@link CookieTokenStore}: a token store over the framework's cookie store (Next's `cookies()`),
 *   with the cookie names, values and lifetimes of the official SDK (PROTOCOL.md §5.3); it writes
 *   refreshed tokens back;
 * - {@link RequestTokenStore} / {@link makeRequestTokenStore} / {@link layerRequestTokenStore}: a
 *   read-only store over a request's headers (`x-stack-auth`, else the `cookie` header);
 * - {@link RequestSession}: picks the right store for a request and builds a per-request session;
 * - {@link authHeaders} / {@link currentAuthHeaders}: the `x-stack-auth` header that hands a
 *   browser's tokens to the app's own backend;
 * - {@link Cookies}: the cookie format itself (names, parsing, `Set-Cookie` strings).
 *
 * @example
 * ```ts
 * import { Effect, ManagedRuntime, Option } from "effect"
 * import { ServerUsers, Stack } from "stack-auth-effect"
 * import { type CookieTokenStore, RequestSession } from "stack-auth-effect/next"
 *
 * declare const projectId: string, secretServerKey: string // your project's keys
 * declare function cookies(): Promise<CookieTokenStore.FrameworkCookies> // `cookies` of next/headers
 *
 * const runtime = ManagedRuntime.make(Stack.layerServer({ projectId, secretServerKey }))
 * export async function GET(request: Request) {
 *   const user = await runtime.runPromise(
 *     ServerUsers.getCurrent().pipe(
 *       Effect.provide(RequestSession.layerSession({ request, cookies: await cookies() }, { projectId }))
 *     )
 *   )
 *   // plain JSON for the browser (not the Option): the fields the page needs, or null when signed out
 *   return Response.json(Option.match(user, {
 *     onNone: () => null,
 *     onSome: ({ id, displayName, primaryEmail }) => ({ id, displayName, primaryEmail })
 *   }))
 * }
 * ```
 *
 * @module
 */

/**
 * `authHeaders(tokens)`: `{ "x-stack-auth": JSON.stringify({ accessToken, refreshToken }) }` for
 * stored tokens (absent ones as `null`), the format the request store reads back. `makeRequestTokenStore`
 * / `layerRequestTokenStore`: the read-only store over a request's `x-stack-auth` header or cookies.
 */
export { authHeaders, layer as layerRequestTokenStore, make as makeRequestTokenStore } from "../session/RequestTokenStore.js"
/** The cookie format of the official SDK: names, parsing, reading rules, `Set-Cookie` strings. */
export * as Cookies from "../session/cookies.js"
/** The request store (`x-stack-auth` header, else the `cookie` header), read-only. */
export * as RequestTokenStore from "../session/RequestTokenStore.js"
/** A token store over a framework's cookie store (Next's `cookies()`), writing refreshed tokens back. */
export * as CookieTokenStore from "./CookieTokenStore.js"
/** Per-request token store and session; the `x-stack-auth` hand-over header. */
export * as RequestSession from "./RequestSession.js"
/** The `x-stack-auth` header / object with the session's current (fresh) tokens. */
export { currentAuthHeaders, currentAuthJson } from "./RequestSession.js"
