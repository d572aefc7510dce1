/**
 * A software authenticator for tests: a `WebAuthnBrowser` that creates real passkeys (P-256 /
 * ES256 keys from WebCrypto) and signs real assertions, the way a platform authenticator and
 * the browser together would:
 *
 * - registration: `clientDataJSON` {type "webauthn.create", challenge, origin, crossOrigin false};
 *   `authenticatorData` = SHA-256(rp id) | flags UP|UV|AT | counter | attested credential data
 *   (zero AAGUID, credential id, COSE EC2 key); `attestationObject` = CBOR {fmt "none", attStmt {},
 *   authData};
 * - authentication: `authenticatorData` = SHA-256(rp id) | flags UP|UV | counter (incremented per
 *   use); signature = ECDSA P-256 SHA-256 over authenticatorData || SHA-256(clientDataJSON), DER.
 *
 * Knobs for failure tests: `supported`, `hostname`, `origin` (the origin written in
 * `clientDataJSON`), `failNext` (the next ceremony fails with that ceremony error),
 * `signWithForeignKey` (sign with an unrelated key), `assertionCredentialId` (claim another
 * credential id). Every ceremony's options are recorded (`creations`, `requests`).
 */
import { Effect, Layer } from "effect"
import type { AuthenticationCredential, CreationOptions, RegistrationCredential, RequestOptions } from "../../src/auth/WebAuthnBrowser.js"
import { WebAuthnBrowser, WebAuthnCeremonyError } from "../../src/auth/WebAuthnBrowser.js"

// ---------------------------------------------------------------------------------------------
// Encodings
// ---------------------------------------------------------------------------------------------

/** Bytes as base64url without padding. */
export const toBase64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** base64url (padding optional) to bytes. */
export const fromBase64Url = (text: string): Uint8Array => {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/")
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4))
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}

const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
  let offset = 0
  for (const part of parts) {
    out.set(part, offset)
    offset += part.length
  }
  return out
}

/** A CBOR value this encoder writes. */
export type CborValue =
  | number
  | string
  | boolean
  | Uint8Array
  | ReadonlyArray<CborValue>
  | ReadonlyMap<number | string, CborValue>
  | { readonly [key: string]: CborValue }

const head = (major: number, length: number): Uint8Array => {
  const type = major << 5
  if (length < 24) return Uint8Array.of(type | length)
  if (length < 0x100) return Uint8Array.of(type | 24, length)
  if (length < 0x10000) return Uint8Array.of(type | 25, length >> 8, length & 0xff)
  return Uint8Array.of(type | 26, (length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff)
}

/** Minimal CBOR encoder (RFC 8949): integers, byte and text strings, arrays, maps, booleans. */
export const encodeCbor = (value: CborValue): Uint8Array => {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error("CBOR encoder: integers only")
    return value >= 0 ? head(0, value) : head(1, -1 - value)
  }
  if (typeof value === "boolean") return Uint8Array.of(value ? 0xf5 : 0xf4)
  if (typeof value === "string") {
    const bytes = new TextEncoder().encode(value)
    return concat(head(3, bytes.length), bytes)
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value)
  if (Array.isArray(value)) return concat(head(4, value.length), ...value.map((item: CborValue) => encodeCbor(item)))
  const entries: ReadonlyArray<readonly [number | string, CborValue]> = value instanceof Map
    ? [...(value as ReadonlyMap<number | string, CborValue>)]
    : Object.entries(value)
  return concat(head(5, entries.length), ...entries.flatMap(([key, item]) => [encodeCbor(key), encodeCbor(item)]))
}

/** A raw ECDSA signature (r || s, 32 bytes each) as ASN.1 DER `SEQUENCE { INTEGER r, INTEGER s }`. */
export const rawSignatureToDer = (raw: Uint8Array): Uint8Array => {
  const integer = (bytes: Uint8Array): Uint8Array => {
    let start = 0
    while (start < bytes.length - 1 && bytes[start] === 0) start++
    let body: Uint8Array = bytes.slice(start)
    if (body[0]! & 0x80) body = concat(Uint8Array.of(0), body)
    return concat(Uint8Array.of(0x02, body.length), body)
  }
  const sequence = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)))
  return concat(Uint8Array.of(0x30, sequence.length), sequence)
}

const sha256 = async (bytes: Uint8Array): Promise<Uint8Array> => new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>))

const uint32 = (value: number): Uint8Array => Uint8Array.of((value >>> 24) & 0xff, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff)

/** Flags of authenticator data. */
export const flags = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 } as const

// ---------------------------------------------------------------------------------------------
// The authenticator
// ---------------------------------------------------------------------------------------------

/** A passkey held by the authenticator. */
export interface StoredCredential {
  readonly id: string
  readonly rpId: string
  /** `user.id` of the registration options (base64url): the assertion's `userHandle`. */
  readonly userHandle: string
  readonly keys: CryptoKeyPair
  counter: number
}

const generateKeys = (): Promise<CryptoKeyPair> =>
  crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]) as Promise<CryptoKeyPair>

const sign = async (key: CryptoKey, data: Uint8Array): Promise<Uint8Array> =>
  rawSignatureToDer(
    new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key, data as Uint8Array<ArrayBuffer>))
  )

/** Options of a software authenticator. */
export interface SoftwareAuthenticatorOptions {
  /** The page's host name (`hostname` of the service); default `localhost`. */
  readonly hostname?: string
  /** The origin written into `clientDataJSON`; default `http://localhost:3000`. */
  readonly origin?: string
  /** Whether the "browser" supports WebAuthn; default true. */
  readonly supported?: boolean
}

/** A software authenticator and the browser around it. */
export class SoftwareAuthenticator {
  hostname: string
  origin: string
  supported: boolean
  /** The next ceremony fails with this error (then it is cleared). */
  failNext: WebAuthnCeremonyError | undefined = undefined
  /** Sign assertions with a key unrelated to the credential. */
  signWithForeignKey = false
  /** Claim this credential id in assertions instead of the real one. */
  assertionCredentialId: string | undefined = undefined
  readonly credentials: Array<StoredCredential> = []
  /** Options of every registration ceremony, as the service handed them to the browser. */
  readonly creations: Array<CreationOptions> = []
  /** Options of every authentication ceremony. */
  readonly requests: Array<RequestOptions> = []

  constructor(options: SoftwareAuthenticatorOptions = {}) {
    this.hostname = options.hostname ?? "localhost"
    this.origin = options.origin ?? "http://localhost:3000"
    this.supported = options.supported ?? true
  }

  private takeFailure(): WebAuthnCeremonyError | undefined {
    const failure = this.failNext
    this.failNext = undefined
    return failure
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): Uint8Array {
    return new TextEncoder().encode(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }))
  }

  /** Makes a passkey (what `navigator.credentials.create` does). Replaces a passkey of the same user and rp id. */
  async create(options: CreationOptions): Promise<RegistrationCredential> {
    const rpId = options.rp.id ?? this.hostname
    const keys = await generateKeys()
    const credentialId = crypto.getRandomValues(new Uint8Array(16))
    const jwk = await crypto.subtle.exportKey("jwk", keys.publicKey)
    const coseKey = new Map<number, CborValue>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, fromBase64Url(jwk.x!)],
      [-3, fromBase64Url(jwk.y!)]
    ])
    const authData = concat(
      await sha256(new TextEncoder().encode(rpId)),
      Uint8Array.of(flags.userPresent | flags.userVerified | flags.attestedCredentialData),
      uint32(0),
      new Uint8Array(16), // AAGUID
      Uint8Array.of(credentialId.length >> 8, credentialId.length & 0xff),
      credentialId,
      encodeCbor(coseKey)
    )
    const attestationObject = encodeCbor(new Map<string, CborValue>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]))
    const id = toBase64Url(credentialId)
    const index = this.credentials.findIndex((stored) => stored.rpId === rpId && stored.userHandle === options.user.id)
    if (index >= 0) this.credentials.splice(index, 1)
    this.credentials.push({ id, rpId, userHandle: options.user.id, keys, counter: 0 })
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: toBase64Url(this.clientData("webauthn.create", options.challenge)),
        attestationObject: toBase64Url(attestationObject),
        transports: ["internal"]
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform"
    }
  }

  /** Signs an assertion with the newest passkey for the rp id (what `navigator.credentials.get` does). */
  async get(options: RequestOptions): Promise<AuthenticationCredential> {
    const rpId = options.rpId ?? this.hostname
    const credential = [...this.credentials].reverse().find((stored) => stored.rpId === rpId)
    if (credential === undefined) throw new Error(`no passkey for ${rpId}`)
    credential.counter += 1
    const authData = concat(
      await sha256(new TextEncoder().encode(rpId)),
      Uint8Array.of(flags.userPresent | flags.userVerified),
      uint32(credential.counter)
    )
    const clientDataJSON = this.clientData("webauthn.get", options.challenge)
    const key = this.signWithForeignKey ? (await generateKeys()).privateKey : credential.keys.privateKey
    const signature = await sign(key, concat(authData, await sha256(clientDataJSON)))
    const id = this.assertionCredentialId ?? credential.id
    return {
      id,
      rawId: id,
      type: "public-key",
      response: {
        clientDataJSON: toBase64Url(clientDataJSON),
        authenticatorData: toBase64Url(authData),
        signature: toBase64Url(signature),
        userHandle: credential.userHandle
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform"
    }
  }

  /** This authenticator as the `WebAuthnBrowser` service. */
  get layer(): Layer.Layer<WebAuthnBrowser> {
    return Layer.succeed(WebAuthnBrowser, {
      isSupported: Effect.sync(() => this.supported),
      hostname: Effect.sync(() => this.hostname),
      register: (options) =>
        Effect.suspend(() => {
          this.creations.push(options)
          const failure = this.takeFailure()
          return failure !== undefined
            ? Effect.fail(failure)
            : Effect.tryPromise({
              try: () => this.create(options),
              catch: (cause) => new WebAuthnCeremonyError({ code: undefined, message: String(cause), cause })
            })
        }),
      authenticate: (options) =>
        Effect.suspend(() => {
          this.requests.push(options)
          const failure = this.takeFailure()
          return failure !== undefined
            ? Effect.fail(failure)
            : Effect.tryPromise({
              try: () => this.get(options),
              catch: (cause) => new WebAuthnCeremonyError({ code: undefined, message: String(cause), cause })
            })
        })
    })
  }
}
