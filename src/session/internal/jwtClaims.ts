/**
 * The claims of a JWT read without checking its signature (what the session needs to know when
 * an access token expires: its `exp`). Our own small reader instead of `jose`'s `decodeJwt`
 * (issue 14: bundle size and files opened at import); it accepts what `decodeJwt` accepts: a
 * compact JWS (three dot-separated parts) whose payload is base64url-encoded JSON of an object.
 * Anything else is `undefined`: never a throw.
 *
 * @module
 */

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** The value of each base64url character code (below 128), -1 for the rest; built at first use. */
let values: Int8Array | undefined
const valuesTable = (): Int8Array => {
  if (values !== undefined) return values
  values = new Int8Array(128).fill(-1)
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i
  return values
}

let utf8: TextDecoder | undefined

/**
 * Decodes base64url (no padding) to UTF-8 text; `undefined` when it is not base64url. Straight to
 * bytes (no `atob`, no rewriting to base64 first): the session reads a token's claims on every
 * request. Leftover bits of the last character are dropped, as `atob` does.
 */
const decodeBase64Url = (text: string): string | undefined => {
  if (text.length % 4 === 1) return undefined
  const table = valuesTable()
  const bytes = new Uint8Array((text.length * 3) >> 2)
  let buffer = 0
  let bits = 0
  let length = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    const value = code < 128 ? table[code]! : -1
    if (value < 0) return undefined
    buffer = ((buffer << 6) | value) & 0xffffff
    bits += 6
    if (bits >= 8) {
      bits -= 8
      bytes[length++] = (buffer >> bits) & 0xff
    }
  }
  return (utf8 ??= new TextDecoder()).decode(bytes.subarray(0, length))
}

/**
 * The payload of a compact JWS as an object of claims, unverified; `undefined` when `token` is not
 * three base64url parts with a JSON object as payload.
 */
export const unverifiedClaims = (token: string): Readonly<Record<string, unknown>> | undefined => {
  const parts = token.split(".")
  if (parts.length !== 3) return undefined
  try {
    const json = decodeBase64Url(parts[1]!)
    if (json === undefined) return undefined
    const claims: unknown = JSON.parse(json)
    return typeof claims === "object" && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
