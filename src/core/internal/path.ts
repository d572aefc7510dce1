import * as Result from "effect/Result"

const parameterPattern = /:([A-Za-z_][A-Za-z0-9_]*)/g

const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** URL-encodes one path segment; never throws (a lone surrogate becomes U+FFFD, as `URLSearchParams` does). */
const encodeSegment = (value: string): string => encodeURIComponent(value.replace(loneSurrogate, "\uFFFD"))

/** Fills `:name` parameters of a path pattern (values are URL-encoded). */
export const fillPath = (pattern: string, params: Readonly<Record<string, string>>): string =>
  pattern.replace(parameterPattern, (_, name: string) => encodeSegment(params[name] ?? ""))

/** Why a path parameter value cannot be sent. */
export interface UnsafePathParameter {
  /** The parameter's name in the pattern (e.g. `provider_account_id`). */
  readonly name: string
  readonly reason: string
}

/**
 * Why a value cannot be one path segment, or `undefined` when it can. The URL parser resolves
 * `.` and `..` segments — encoded or not (`%2E` is a dot segment too) — so `/a/:id/b` with
 * `id = ".."` would reach `/b`: such values are refused, as is the empty value (`/users/` is the
 * list, not a user) and text that is not well-formed UTF-16 (a lone surrogate).
 */
export const unsafeSegmentReason = (value: string): string | undefined => {
  if (value.length === 0) return "is empty"
  if (value === "." || value === "..") return `is the dot segment "${value}"`
  loneSurrogate.lastIndex = 0
  if (loneSurrogate.test(value)) return "holds a lone UTF-16 surrogate"
  return undefined
}

/**
 * Fills a path pattern, refusing values that would not address exactly one segment (see
 * {@link unsafeSegmentReason}): the caller turns a failure into `InvalidArgument` before anything
 * is sent.
 */
export const fillPathChecked = (
  pattern: string,
  params: Readonly<Record<string, string>>
): Result.Result<string, UnsafePathParameter> => {
  let unsafe: UnsafePathParameter | undefined
  const path = pattern.replace(parameterPattern, (_, name: string) => {
    const raw: unknown = params[name]
    const value = typeof raw === "string" ? raw : ""
    const reason = unsafeSegmentReason(value)
    if (reason !== undefined && unsafe === undefined) unsafe = { name, reason }
    return encodeSegment(value)
  })
  return unsafe === undefined ? Result.succeed(path) : Result.fail(unsafe)
}

/** Matches a concrete path against a pattern, returning the decoded parameters. */
export const matchPath = (pattern: string, path: string): Record<string, string> | undefined => {
  const patternParts = pattern.split("/")
  const pathParts = path.split("/")
  if (patternParts.length !== pathParts.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < patternParts.length; i++) {
    const expected = patternParts[i]!
    const actual = pathParts[i]!
    if (expected.startsWith(":")) {
      if (actual.length === 0) return undefined
      try {
        params[expected.slice(1)] = decodeURIComponent(actual)
      } catch {
        return undefined
      }
    } else if (expected !== actual) {
      return undefined
    }
  }
  return params
}
