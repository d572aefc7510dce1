/**
 * Where the demo may navigate to: every target, and above all one that came from a query parameter
 * (`after_auth_return_to`, a redirect URL the service echoes back), goes through the SDK's
 * trusted-URL check (`UrlTrust`) with the app's own origin — nothing else is trusted. The check
 * refuses `//host`, `/..//host`, encoded and dot-segment twins, other schemes and origins.
 */
import * as Result from "effect/Result"
import { UrlTrust } from "stack-auth-effect"

/** The query parameter naming the page to come back to after signing in. */
export const returnToParam = "after_auth_return_to"

/**
 * `candidate` as an in-app path (`pathname + search + hash`) when `UrlTrust` trusts it for the
 * app at `origin` (a same-origin path, or an absolute URL of that origin), else `undefined`.
 */
export const safeTarget = (candidate: string, origin: string): string | undefined => {
  const checked = UrlTrust.check(candidate, { appOrigin: origin })
  if (Result.isFailure(checked)) return undefined
  const target = checked.success
  if (target.startsWith("/")) return target
  const url = new URL(target)
  return `${url.pathname}${url.search}${url.hash}`
}

/**
 * The destination after signing in: `after_auth_return_to` of the current page when `UrlTrust`
 * trusts it for this app, else `fallback`.
 */
export const returnTo = (url: URL, fallback: string): string => {
  const value = url.searchParams.get(returnToParam)
  if (value === null) return fallback
  return safeTarget(value, url.origin) ?? fallback
}

/** A handler page's path with the current page's `after_auth_return_to` carried over (only a trusted one). */
export const withReturnTo = (path: string, url: URL): string => {
  const value = url.searchParams.get(returnToParam)
  const target = value === null ? undefined : safeTarget(value, url.origin)
  return target === undefined ? path : `${path}?${returnToParam}=${encodeURIComponent(target)}`
}

/** The sign-in page, asked to come back to `url` afterwards. */
export const signInReturningTo = (url: URL): string => `/handler/sign-in?${returnToParam}=${encodeURIComponent(`${url.pathname}${url.search}`)}`
