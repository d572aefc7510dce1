/** Fills `:name` parameters of a path pattern (values are URL-encoded). */
export const fillPath = (pattern: string, params: Readonly<Record<string, string>>): string =>
  pattern.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => encodeURIComponent(params[name] ?? ""))

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

