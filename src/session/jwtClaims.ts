/**
 * The claims of a JWT read without checking its signature: the SDK's one claims reader (the
 * session's expiry check, OAuth's link token, the access-token verifier before its signature
 * check, the server helpers). Our own small reader instead of `jose`'s `decodeJwt` (issue 14:
 * bundle size and files opened at import); it accepts what `decodeJwt` accepts: a compact JWS
 * (three dot-separated parts) whose payload is base64url-encoded JSON of an object. Anything else
 * is `undefined`: never a throw.
 *
 * @module
 */
import { utf8Text } from "../core/Wire.js"

const base64url = /^[A-Za-z0-9_-]*$/
const nonAscii = /[^\x00-\x7f]/

/**
 * Decodes base64url (no padding) to UTF-8 text; `undefined` when it is not base64url. The session
 * reads a token's claims on every request: an ASCII payload (the usual one) is `atob`'s text as it
 * is, without a copy to bytes and back; the rest goes through the shared decoder (`utf8Text`).
 */
const decodeBase64Url = (text: string): string | undefined => {
  if (!base64url.test(text) || text.length % 4 === 1) return undefined
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4))
  if (!nonAscii.test(binary)) return binary
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return utf8Text(bytes)
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
