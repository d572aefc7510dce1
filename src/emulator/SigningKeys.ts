/**
 * The types of the emulator's signing keys (per project and audience two ES256 key pairs), in a
 * leaf module: the state stores them and `AccessTokens` makes and uses them, so neither imports
 * the other back (docs/ARCHITECTURE.md). `AccessTokens` re-exports them.
 *
 * @module
 */

/** Which users a key signs for: normal, restricted (non-anonymous) or anonymous users. */
export type Audience = "normal" | "restricted" | "anonymous"

/** A public key as published in the JWKS. */
export interface PublicJwk {
  readonly kty: "EC"
  readonly crv: "P-256"
  readonly alg: "ES256"
  readonly kid: string
  readonly x: string
  readonly y: string
}

/** One ES256 key pair with its 12-character key id. */
export interface SigningKey {
  readonly kid: string
  readonly audience: Audience
  readonly privateKey: CryptoKey
  readonly publicKey: CryptoKey
  readonly publicJwk: PublicJwk
}

/** A project's keys: two per audience; the first of each pair signs. */
export type ProjectSigningKeys = { readonly [A in Audience]: readonly [SigningKey, SigningKey] }
