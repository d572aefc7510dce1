/** Lowercase Crockford base32 (the service's tokens, codes and nonces). */
export const crockfordAlphabet = "0123456789abcdefghjkmnpqrstvwxyz"

/** RFC 4648 base32 (what authenticator apps read in `otpauth://` URIs). */
export const rfc4648Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** Encodes bytes in base32 with the given 32-character alphabet, 5 bits a character, no padding. */
export const encodeBase32 = (bytes: Uint8Array, alphabet: string): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += alphabet[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(buffer << (5 - bits)) & 31]
  return out
}
