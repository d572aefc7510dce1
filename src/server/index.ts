/**
 * stack-auth-effect/server: authenticate incoming requests on the app's own server —
 * `RequestAuth` (a plain `Request → Effect` helper, the `CurrentUser` / `CurrentClaims` services,
 * the typed `Unauthorized` / `Forbidden`) and `HttpApiAuth` (`effect/http-api` and `effect/http`
 * middleware for `HttpApi` and `HttpRouter`).
 *
 * @module
 */
export * as HttpApiAuth from "./HttpApiAuth.js"
export * as RequestAuth from "./RequestAuth.js"
