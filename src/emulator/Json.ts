/**
 * The one JSON parser of the emulator: every JSON text it reads from a request — the body, JSON
 * text inside the body (`config_override_string`, `config_string`), a passkey's `clientDataJSON`,
 * the header and payload of an access token — goes through {@link parseJson}, which refuses a
 * document nested more than {@link maxJsonDepth} levels deep before anything walks it (a walk
 * of a value thousands of levels deep overflows the stack: a 500 instead of the service's answer).
 *
 * @module
 */
// the client's own depth scan (one implementation for both sides of the wire)
import { jsonNestsDeeperThan } from "../core/Wire.js"

/** How many levels of arrays and objects a JSON text the emulator reads may nest (deeper: refused). */
export const maxJsonDepth = 100

/** A parsed JSON text, or why it was not parsed: not JSON, or nested deeper than {@link maxJsonDepth}. */
export type ParsedJson =
  | { readonly _tag: "Value"; readonly value: unknown }
  | { readonly _tag: "Invalid" }
  | { readonly _tag: "TooDeep" }

const invalid: ParsedJson = { _tag: "Invalid" }
const tooDeep: ParsedJson = { _tag: "TooDeep" }

/**
 * Parses a JSON text of a request. The depth is read from the text first (brackets outside
 * strings), so a document nested too deeply is `TooDeep` without being built or checked further;
 * otherwise a text that is not JSON is `Invalid`.
 */
export const parseJson = (text: string): ParsedJson => {
  if (jsonNestsDeeperThan(text, maxJsonDepth)) return tooDeep
  try {
    return { _tag: "Value", value: JSON.parse(text) as unknown }
  } catch {
    return invalid
  }
}
