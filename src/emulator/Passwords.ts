/**
 * Password hashing with PBKDF2-SHA256 through WebCrypto (`crypto.subtle`): salted, encoded as
 * `pbkdf2-sha256$<iterations>$<salt base64>$<hash base64>`. The emulator never stores a clear
 * password. The iteration count is low by default (see `defaults.passwordHashIterations`).
 *
 * @module
 */
import { Effect } from "effect"
import { base64ToBytes, bytesToBase64 } from "./Random.js"

const scheme = "pbkdf2-sha256"

const derive = (password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> =>
  globalThis.crypto.subtle
    .importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"])
    .then((key) =>
      globalThis.crypto.subtle.deriveBits(
        { name: "PBKDF2", hash: "SHA-256", salt: salt as BufferSource, iterations },
        key,
        256
      )
    )
    .then((bits) => new Uint8Array(bits))

/** Hashes a password with a fresh 16-byte salt. */
export const hashPassword = (password: string, iterations: number): Effect.Effect<string> =>
  Effect.promise(() => {
    const salt = new Uint8Array(16)
    globalThis.crypto.getRandomValues(salt)
    return derive(password, salt, iterations).then(
      (hash) => `${scheme}$${iterations}$${bytesToBase64(salt)}$${bytesToBase64(hash)}`
    )
  })

/** Whether `password` matches an encoded hash made by {@link hashPassword} (false for any other format). */
export const verifyPassword = (password: string, encoded: string): Effect.Effect<boolean> => {
  const parts = encoded.split("$")
  if (parts.length !== 4 || parts[0] !== scheme) return Effect.succeed(false)
  const iterations = Number(parts[1])
  if (!Number.isInteger(iterations) || iterations < 1) return Effect.succeed(false)
  let salt: Uint8Array
  let expected: Uint8Array
  try {
    salt = base64ToBytes(parts[2]!)
    expected = base64ToBytes(parts[3]!)
  } catch {
    return Effect.succeed(false)
  }
  return Effect.promise(() => derive(password, salt, iterations)).pipe(
    Effect.map((actual) => {
      if (actual.length !== expected.length) return false
      let difference = 0
      for (let i = 0; i < actual.length; i++) difference |= actual[i]! ^ expected[i]!
      return difference === 0
    })
  )
}
