/**
 * Token responses and the OAuth token endpoint (PROTOCOL.md §2.1, §2.6). Token responses are
 * validated before anything is stored (SPEC.md §5): a non-empty access token, `token_type`
 * bearer or dpop in any case, a positive `expires_in` where present, never the text `undefined`.
 *
 * The token endpoint's answer is defined with the session that sends the refresh grant
 * (`session/RefreshGrant.ts`, docs/ARCHITECTURE.md) and re-exported here; the grant itself (its
 * descriptor, form fields and the public-client secret) is wire-only and stays there.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { field, optionalField, RedactedToken } from "../core/Wire.js"

export {
  /** Answer of `POST /auth/oauth/token`. */
  OAuthTokenResponse,
  /** `token_type` of an OAuth token response: bearer or dpop, any case. */
  TokenType
} from "../session/RefreshGrant.js"

/** `{access_token, refresh_token, user_id}` of password/anonymous sign-in and sign-up. */
export const SignInTokens = Schema.Struct({
  accessToken: field("access_token", RedactedToken),
  refreshToken: field("refresh_token", RedactedToken),
  userId: field("user_id", Schema.String),
  isNewUser: optionalField("is_new_user", Schema.Boolean)
})

/** A sign-in answer in the domain. */
export type SignInTokens = typeof SignInTokens.Type
