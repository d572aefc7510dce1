import * as Option from "effect/Option"

/** A URL parsed (against `base` when given), or none when it is not one. Never throws. */
export const parseUrl = (text: string | URL | null | undefined, base?: URL | string): Option.Option<URL> => {
  if (text === null || text === undefined) return Option.none()
  try {
    return Option.some(base === undefined ? new URL(String(text)) : new URL(String(text), base))
  } catch {
    return Option.none()
  }
}
