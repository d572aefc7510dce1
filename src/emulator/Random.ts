/**
 * Random identifiers of the emulator, all from `globalThis.crypto.getRandomValues` (WebCrypto,
 * so the emulator also runs in a browser under msw): Crockford base32 tokens and codes, uuids,
 * request ids.
 *
 * @module
 */

import { crockfordAlphabet } from "../core/Wire.js"

/** The lowercase Crockford base32 alphabet (no i, l, o, u). */
export { crockfordAlphabet }

/** `length` random lowercase Crockford base32 characters (5 random bits each). */
export const randomBase32 = (length: number): string => {
  const bytes = new Uint8Array(length)
  globalThis.crypto.getRandomValues(bytes)
  let out = ""
  for (const byte of bytes) out += crockfordAlphabet[byte & 31]
  return out
}

/** 45 random Crockford base32 characters (225 bits): refresh tokens, e-mailed codes, key bodies. */
export const randomToken45 = (): string => randomBase32(45)

/** A random RFC 4122 version-4 uuid, lowercase (from `getRandomValues`: `randomUUID` needs a secure context in browsers). */
export const randomUuid = (): string => {
  const bytes = new Uint8Array(16)
  globalThis.crypto.getRandomValues(bytes)
  bytes[6] = (bytes[6]! & 0x0f) | 0x40
  bytes[8] = (bytes[8]! & 0x3f) | 0x80
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A request id as the service sends it in `x-stack-request-id` (16 base32 characters). */
export const randomRequestId = (): string => randomBase32(16)

/** `bytes` random bytes as base64url without padding (a 12-character key id from 9 bytes). */
export const randomBase64Url = (bytes: number): string => {
  const buffer = new Uint8Array(bytes)
  globalThis.crypto.getRandomValues(buffer)
  return bytesToBase64Url(buffer)
}

/** Encodes bytes as standard base64. */
export const bytesToBase64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/** Encodes bytes as base64url without padding. */
export const bytesToBase64Url = (bytes: Uint8Array): string => bytesToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** Decodes standard base64 (throws on malformed input). */
export const base64ToBytes = (text: string): Uint8Array => {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** Whether `text` is `length` lowercase Crockford base32 characters. */
export const isCrockford = (text: string, length: number): boolean => text.length === length && [...text].every((char) => crockfordAlphabet.includes(char))

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Whether `text` is a lowercase uuid. */
export const isUuid = (text: string): boolean => uuidPattern.test(text)
