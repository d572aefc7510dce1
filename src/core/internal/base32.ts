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

/**
 * Decodes Crockford base32 (either case; `o` reads as `0`, `i` and `l` as `1`, as the official
 * SDK's `decodeBase32`), 5 bits a character, trailing bits dropped. `undefined` for a text with
 * any other character.
 */
export const decodeCrockford = (text: string): Uint8Array | undefined => {
  const out: Array<number> = []
  let buffer = 0
  let bits = 0
  for (const raw of text.toLowerCase()) {
    const index = crockfordAlphabet.indexOf(raw === "o" ? "0" : raw === "i" || raw === "l" ? "1" : raw)
    if (index < 0) return undefined
    buffer = ((buffer << 5) | index) & 0xffff
    bits += 5
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Uint8Array.from(out)
}
