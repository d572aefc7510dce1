import { Effect } from "effect"

const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

/** Encodes bytes as lowercase Crockford base32 (5 bits a character, last one zero-padded). */
export const encodeCrockford = (bytes: Uint8Array): string => {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += crockford[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += crockford[(buffer << (5 - bits)) & 31]
  return out
}

/** 224 random bits as 45 lowercase Crockford base32 characters. */
export const randomNonce: Effect.Effect<string> = Effect.sync(() => {
  const bytes = new Uint8Array(28)
  globalThis.crypto.getRandomValues(bytes)
  return encodeCrockford(bytes)
})
