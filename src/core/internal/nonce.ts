import { Effect } from "effect"
import { crockfordAlphabet, encodeBase32 } from "./base32.js"

/** Encodes bytes as lowercase Crockford base32 (5 bits a character, last one zero-padded). */
export const encodeCrockford = (bytes: Uint8Array): string => encodeBase32(bytes, crockfordAlphabet)

/** 224 random bits as 45 lowercase Crockford base32 characters. */
export const randomNonce: Effect.Effect<string> = Effect.sync(() => {
  const bytes = new Uint8Array(28)
  globalThis.crypto.getRandomValues(bytes)
  return encodeCrockford(bytes)
})
