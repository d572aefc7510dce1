/**
 * The wire definitions of `Tokens` (docs/ARCHITECTURE.md): the sign-in answer the auth
 * endpoints share, used by `Tokens.ts`, the auth domain's descriptors, the emulator and tests;
 * not part of the public surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { field, optionalField, RedactedToken, wireStruct } from "../../core/Wire.js"

/** `{access_token, refresh_token, user_id}` of password/anonymous sign-in and sign-up. */
export const SignInTokens = wireStruct({
  accessToken: field("access_token", RedactedToken),
  refreshToken: field("refresh_token", RedactedToken),
  userId: field("user_id", Schema.String),
  isNewUser: optionalField("is_new_user", Schema.Boolean)
})

/** A sign-in answer in the domain. */
export type SignInTokens = typeof SignInTokens.Type
