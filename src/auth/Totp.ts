/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP): the codes an authenticator app
 * shows for a TOTP secret. The service's MFA uses HMAC-SHA1, a 30 s step and 6 digits
 * (PROTOCOL.md §3.0 "MFA (TOTP)"); the emulator checks codes with this module too.
 *
 * WebCrypto only (`globalThis.crypto`), so it runs in browsers, Node and the emulator alike.
 * Time comes from Effect's `Clock` in {@link generate} and {@link verify}, so tests drive it
 * with `TestClock`.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { Totp } from "stack-auth-effect"
 *
 * const secret = Totp.randomSecret()
 * const code = Effect.runPromise(Totp.generate(secret)) // "492039"
 * ```
 *
 * @module
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { InvalidArgument } from "../core/Errors.js"
import { encodeBase32, rfc4648Alphabet } from "../core/Wire.js"

/** The HMAC hash of a TOTP (the service uses SHA-1). */
export type Algorithm = "SHA-1" | "SHA-256" | "SHA-512"

/** Parameters of a TOTP; every field has the service's value as default. */
export interface TotpOptions {
  /** Number of digits (default 6). */
  readonly digits?: number
  /** Length of a time step in seconds (default 30). */
  readonly periodSeconds?: number
  /** HMAC hash (default SHA-1). */
  readonly algorithm?: Algorithm
}

/** The service's TOTP parameters: SHA-1, 30 s, 6 digits. */
export const defaults = { digits: 6, periodSeconds: 30, algorithm: "SHA-1" } as const satisfies Required<TotpOptions>

/** Length of the secrets {@link randomSecret} makes (20 bytes, the HMAC-SHA1 block-size recommendation of RFC 4226). */
export const secretLength = 20

/** A new random secret of {@link secretLength} bytes (from `crypto.getRandomValues`). */
export const randomSecret = (): Uint8Array => {
  const bytes = new Uint8Array(secretLength)
  globalThis.crypto.getRandomValues(bytes)
  return bytes
}

/** Standard base64 of a secret: the form `totp_secret_base64` of `PATCH /users/me` takes. */
export const toBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const base64Pattern = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** Decodes standard base64; `undefined` for text that is not base64. */
export const fromBase64 = (text: string): Uint8Array | undefined => {
  if (!base64Pattern.test(text)) return undefined
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** RFC 4648 base32 without padding: the form authenticator apps read in `otpauth://` URIs. */
export const toBase32 = (bytes: Uint8Array): string => encodeBase32(bytes, rfc4648Alphabet)

/**
 * The `otpauth://totp/…` URI an authenticator app imports (usually as a QR code): label
 * `issuer:accountName`, the secret in base32, and the service's parameters.
 */
export const otpauthUri = (input: {
  readonly secret: Uint8Array
  readonly issuer: string
  readonly accountName: string
}): string => {
  const label = `${encodeURIComponent(input.issuer)}:${encodeURIComponent(input.accountName)}`
  const query = new URLSearchParams({
    secret: toBase32(input.secret),
    issuer: input.issuer,
    algorithm: "SHA1",
    digits: String(defaults.digits),
    period: String(defaults.periodSeconds)
  })
  return `otpauth://totp/${label}?${query.toString()}`
}

const checkOptions = (secret: Uint8Array, options: TotpOptions): Effect.Effect<Required<TotpOptions>, InvalidArgument> => {
  const resolved = { ...defaults, ...options }
  if (secret.length === 0) return Effect.fail(new InvalidArgument({ message: "The TOTP secret is empty.", argument: "secret" }))
  if (!Number.isInteger(resolved.digits) || resolved.digits < 1 || resolved.digits > 10) {
    return Effect.fail(new InvalidArgument({ message: "TOTP digits must be an integer from 1 to 10.", argument: "digits" }))
  }
  if (!Number.isInteger(resolved.periodSeconds) || resolved.periodSeconds < 1) {
    return Effect.fail(new InvalidArgument({ message: "The TOTP period must be a positive number of seconds.", argument: "periodSeconds" }))
  }
  return Effect.succeed(resolved)
}

/** The HOTP value (RFC 4226) of a counter: HMAC over the 8-byte big-endian counter, dynamic truncation. */
const hotp = (secret: Uint8Array, counter: number, options: Required<TotpOptions>): Effect.Effect<string> =>
  Effect.promise(async () => {
    const key = await globalThis.crypto.subtle.importKey(
      "raw",
      secret.slice().buffer,
      { name: "HMAC", hash: options.algorithm },
      false,
      ["sign"]
    )
    const message = new Uint8Array(8)
    let rest = counter
    for (let i = 7; i >= 0; i--) {
      message[i] = rest % 256
      rest = Math.floor(rest / 256)
    }
    const mac = new Uint8Array(await globalThis.crypto.subtle.sign("HMAC", key, message))
    const offset = mac[mac.length - 1]! & 0x0f
    const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!
    return String(binary % 10 ** options.digits).padStart(options.digits, "0")
  })

/** The time step of an instant: `floor(unix seconds / period)`. */
export const stepAt = (timeMillis: number, periodSeconds: number = defaults.periodSeconds): number => Math.floor(timeMillis / 1000 / periodSeconds)

/**
 * The code for a secret at an instant (epoch milliseconds). Fails with `InvalidArgument` for an
 * empty secret or impossible options.
 */
export const generateAt = (
  secret: Uint8Array,
  timeMillis: number,
  options: TotpOptions = {}
): Effect.Effect<string, InvalidArgument> =>
  Effect.flatMap(checkOptions(secret, options), (resolved) => hotp(secret, stepAt(timeMillis, resolved.periodSeconds), resolved))

/** The code for a secret now (time from `Clock`). */
export const generate = (secret: Uint8Array, options: TotpOptions = {}): Effect.Effect<string, InvalidArgument> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => generateAt(secret, now, options))

/**
 * Whether `code` is the code of the step at `timeMillis` or of one of the `window` steps before
 * or after it (default 1: clocks may differ by up to a step). Codes of the wrong length or with
 * non-digits are never valid.
 */
export const verifyAt = (
  secret: Uint8Array,
  code: string,
  timeMillis: number,
  options: TotpOptions & { readonly window?: number } = {}
): Effect.Effect<boolean, InvalidArgument> =>
  Effect.gen(function* () {
    const resolved = yield* checkOptions(secret, options)
    if (code.length !== resolved.digits || !/^[0-9]+$/.test(code)) return false
    const window = options.window ?? 1
    const step = stepAt(timeMillis, resolved.periodSeconds)
    for (let delta = -window; delta <= window; delta++) {
      if (step + delta < 0) continue
      if ((yield* hotp(secret, step + delta, resolved)) === code) return true
    }
    return false
  })

/** {@link verifyAt} now (time from `Clock`). */
export const verify = (
  secret: Uint8Array,
  code: string,
  options: TotpOptions & { readonly window?: number } = {}
): Effect.Effect<boolean, InvalidArgument> => Effect.flatMap(Clock.currentTimeMillis, (now) => verifyAt(secret, code, now, options))
