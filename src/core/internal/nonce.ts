import * as Effect from "effect/Effect"
import { crockfordAlphabet, encodeBase32 } from "./base32.js"

/** Encodes bytes as lowercase Crockford base32 (5 bits a character, last one zero-padded). */
export const encodeCrockford = (bytes: Uint8Array): string => encodeBase32(bytes, crockfordAlphabet)

/** 224 random bits as 45 lowercase Crockford base32 characters. */
export const randomNonce: Effect.Effect<string> = Effect.sync(() => encodeCrockford(randomBytes(28)))

// Random bytes drawn from the CSPRNG in blocks (one `getRandomValues` per 64 nonces, not per request);
// every byte is handed out once.
const poolSize = 28 * 64
let pool = new Uint8Array(0)
let poolOffset = 0

const randomBytes = (length: number): Uint8Array => {
  if (poolOffset + length > pool.length) {
    pool = new Uint8Array(poolSize)
    globalThis.crypto.getRandomValues(pool)
    poolOffset = 0
  }
  const bytes = pool.subarray(poolOffset, poolOffset + length)
  poolOffset += length
  return bytes
}
