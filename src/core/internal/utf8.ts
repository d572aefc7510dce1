/**
 * UTF-8 bytes to text with one decoder for the whole process (made at first use): `decode`
 * without `stream` keeps no state between calls, so answers and tokens share it instead of each
 * module keeping its own. Malformed bytes become U+FFFD, as `new TextDecoder()` does.
 *
 * @module
 */

let decoder: TextDecoder | undefined

/** The text of UTF-8 `bytes` (malformed sequences replaced, never a throw). */
export const utf8Text = (bytes: Uint8Array): string => (decoder ??= new TextDecoder()).decode(bytes)
