/** TOTP (RFC 6238): the SHA-1 test vectors, the service's parameters, verification windows, encodings. */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import * as Totp from "../../src/auth/Totp.js"

/** RFC 6238 appendix B: the SHA-1 seed is the ASCII text "12345678901234567890". */
const rfcSecret = new TextEncoder().encode("12345678901234567890")

const rfcVectors: ReadonlyArray<readonly [seconds: number, code: string]> = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"]
]

describe("Totp", () => {
  it.effect("matches the RFC 6238 SHA-1 test vectors (8 digits)", () =>
    Effect.gen(function* () {
      for (const [seconds, code] of rfcVectors) {
        expect(yield* Totp.generateAt(rfcSecret, seconds * 1000, { digits: 8 })).toBe(code)
      }
    }))

  it.effect("uses the service's parameters by default: 6 digits (the low 6 of the RFC values), 30 s steps, SHA-1", () =>
    Effect.gen(function* () {
      for (const [seconds, code] of rfcVectors) {
        expect(yield* Totp.generateAt(rfcSecret, seconds * 1000)).toBe(code.slice(2))
      }
      expect(Totp.defaults).toEqual({ digits: 6, periodSeconds: 30, algorithm: "SHA-1" })
    }))

  it.effect("reproduces the code a real instance accepted (wire sample mfa/05, secret from mfa/01)", () =>
    Effect.gen(function* () {
      const secret = Totp.fromBase64("luaDiqgYeB/wrE2eXXwKfj2Ln9o=")!
      // the sample's access token was issued at 1795317979 s; the code was computed just before
      expect(yield* Totp.verifyAt(secret, "499033", 1795317979 * 1000)).toBe(true)
      expect(yield* Totp.verifyAt(secret, "999033", 1795317979 * 1000)).toBe(false)
    }))

  it.effect("a code is the same for the whole 30 s step and changes with the next", () =>
    Effect.gen(function* () {
      const start = 1_700_000_010_000 // a step boundary: 1_700_000_010 is divisible by 30
      const first = yield* Totp.generateAt(rfcSecret, start)
      expect(yield* Totp.generateAt(rfcSecret, start + 29_999)).toBe(first)
      expect(yield* Totp.generateAt(rfcSecret, start + 30_000)).not.toBe(first)
    }))

  it.effect("generate and verify read the time from Clock", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(1111111111 * 1000)
      expect(yield* Totp.generate(rfcSecret)).toBe("050471")
      expect(yield* Totp.verify(rfcSecret, "050471")).toBe(true)
    }))

  it.effect("verification accepts one step of drift either way, not two", () =>
    Effect.gen(function* () {
      const now = 1_800_000_000_000
      const at = (deltaSteps: number) => Totp.generateAt(rfcSecret, now + deltaSteps * 30_000)
      for (const delta of [-1, 0, 1]) expect(yield* Totp.verifyAt(rfcSecret, yield* at(delta), now)).toBe(true)
      for (const delta of [-2, 2]) {
        const code = yield* at(delta)
        // a code of a far step could collide with a near one by chance; skip that case
        const near = [yield* at(-1), yield* at(0), yield* at(1)]
        if (!near.includes(code)) expect(yield* Totp.verifyAt(rfcSecret, code, now)).toBe(false)
      }
      expect(yield* Totp.verifyAt(rfcSecret, yield* at(2), now, { window: 2 })).toBe(true)
    }))

  it.effect("codes of the wrong length or with non-digits never verify", () =>
    Effect.gen(function* () {
      const now = 1_800_000_000_000
      const code = yield* Totp.generateAt(rfcSecret, now)
      expect(yield* Totp.verifyAt(rfcSecret, `${code}0`, now)).toBe(false)
      expect(yield* Totp.verifyAt(rfcSecret, code.slice(1), now)).toBe(false)
      expect(yield* Totp.verifyAt(rfcSecret, "12a456", now)).toBe(false)
      expect(yield* Totp.verifyAt(rfcSecret, "", now)).toBe(false)
    }))

  it.effect("an empty secret or impossible options fail with InvalidArgument, not a defect", () =>
    Effect.gen(function* () {
      const empty = yield* Effect.flip(Totp.generateAt(new Uint8Array(0), 0))
      expect(empty._tag).toBe("InvalidArgument")
      expect(empty.argument).toBe("secret")
      expect((yield* Effect.flip(Totp.generateAt(rfcSecret, 0, { digits: 0 }))).argument).toBe("digits")
      expect((yield* Effect.flip(Totp.generateAt(rfcSecret, 0, { periodSeconds: 0 }))).argument).toBe("periodSeconds")
    }))

  it("random secrets are 20 bytes and differ", () => {
    const a = Totp.randomSecret()
    const b = Totp.randomSecret()
    expect(a.length).toBe(20)
    expect(Totp.toBase64(a)).not.toBe(Totp.toBase64(b))
  })

  it("encodes secrets as standard base64 (for totp_secret_base64) and RFC 4648 base32 (for apps)", () => {
    expect(Totp.toBase64(rfcSecret)).toBe("MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=")
    expect(Totp.fromBase64("MTIzNDU2Nzg5MDEyMzQ1Njc4OTA=")).toEqual(rfcSecret)
    expect(Totp.fromBase64("not base64!")).toBeUndefined()
    expect(Totp.toBase32(rfcSecret)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ")
    expect(Totp.toBase32(new TextEncoder().encode("f"))).toBe("MY")
    expect(Totp.toBase32(new TextEncoder().encode("foobar"))).toBe("MZXW6YTBOI")
  })

  it("builds the otpauth URI authenticator apps import", () => {
    const uri = Totp.otpauthUri({ secret: rfcSecret, issuer: "Stack Auth", accountName: "ada@example.com" })
    expect(uri).toBe(
      "otpauth://totp/Stack%20Auth:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Stack+Auth&algorithm=SHA1&digits=6&period=30"
    )
  })
})
