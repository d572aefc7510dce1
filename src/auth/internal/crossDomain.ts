/**
 * The wire definition of the cross-domain sign-in hand-over (`OAuth.crossDomainRedirectUrl`):
 * `POST /auth/oauth/cross-domain/authorize`, client access with the signed-in user's tokens (the
 * service requires the refresh token too, `x-stack-refresh-token`, which a session call sends).
 * Not part of the public surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { RedirectUrlNotWhitelisted, UserAuthenticationRequired } from "../../core/KnownErrors.js"
import { field, optionalField, wireStruct } from "../../core/Wire.js"

/** `POST /auth/oauth/cross-domain/authorize` → `{ redirect_url }`. */
export const crossDomainAuthorizeEndpoint = Endpoint.make({
  name: "OAuth.crossDomainRedirectUrl",
  method: "POST",
  path: "/auth/oauth/cross-domain/authorize",
  access: "client",
  session: "required",
  payload: wireStruct({
    redirectUri: field("redirect_uri", Schema.String),
    state: Schema.String,
    codeChallenge: field("code_challenge", Schema.String),
    codeChallengeMethod: field("code_challenge_method", Schema.Literal("S256")),
    afterCallbackRedirectUrl: optionalField("after_callback_redirect_url", Schema.String)
  }),
  success: wireStruct({ redirectUrl: field("redirect_url", Schema.String) }),
  errors: [UserAuthenticationRequired, RedirectUrlNotWhitelisted]
})
