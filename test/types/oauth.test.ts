/**
 * Type tests: the error channels of the OAuth flow and of connected accounts are pinned.
 * Checked by `tsc` (npm run typecheck), run by vitest as a no-op at run time.
 */
import { describe, expectTypeOf, it } from "vitest"
import type * as Mfa from "../../src/auth/Mfa.js"
import * as OAuth from "../../src/auth/OAuth.js"
import type { OAuthBrowser } from "../../src/auth/OAuthBrowser.js"
import * as ConnectedAccounts from "../../src/connected-accounts/ConnectedAccounts.js"
import type { ConfigurationError, InvalidArgument, RefreshFailure, SessionError, UnsupportedKnownError, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import type { ClientCommon, ErrorOf, RequirementsOf, SessionCommon, Transport } from "./support.js"

type KeyErrors =
  | KnownErrors.InvalidOauthClientIdOrSecret
  | KnownErrors.InvalidPublishableClientKey
  | KnownErrors.PublishableClientKeyRequiredForProject

type StartErrors =
  | ConfigurationError<KeyErrors>
  | KnownErrors.OauthProviderNotFoundOrNotEnabled
  | KnownErrors.RedirectUrlNotWhitelisted
  | KnownErrors.OauthExtraScopeNotAvailableWithSharedOauthKeys
  | SessionError<KnownErrors.UnparsableAccessToken | KnownErrors.AccessTokenExpired> // the token sent in the query
  | SessionError<RefreshFailure> // a failed refresh of the current token
  | KnownErrors.SchemaError
  | Transport
  | InvalidArgument
  | OAuth.InvalidOAuthUrl

describe("OAuth error unions", () => {
  it("signInWithOAuth: the authorize errors, a failed refresh of the current token, a malformed URL option", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof OAuth.signInWithOAuth>>>().toEqualTypeOf<StartErrors>()
    expectTypeOf<RequirementsOf<ReturnType<typeof OAuth.signInWithOAuth>>>().toEqualTypeOf<OAuthBrowser | StackClient | Session>()
  })

  it("linkAccount adds UserNotSignedIn", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof OAuth.linkAccount>>>().toEqualTypeOf<StartErrors | UserNotSignedIn>()
  })

  it("handleCallback: the errors delivered on the URL, MFA (a rejected prompted code with mfa: 'prompt'), and OAuthCallbackError for everything else", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof OAuth.handleCallback>>>().toEqualTypeOf<
      | KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse
      | KnownErrors.OauthConnectionAlreadyConnectedToAnotherUser
      | KnownErrors.SignUpNotEnabled
      | KnownErrors.SignUpRejected
      | KnownErrors.OauthProviderAccessDenied
      | KnownErrors.OauthProviderTemporarilyUnavailable
      | KnownErrors.MultiFactorAuthenticationRequired
      | UnsupportedKnownError
      | OAuth.OAuthCallbackError
      | Mfa.OAuthMfaCodeRejected
    >()
    expectTypeOf<RequirementsOf<ReturnType<typeof OAuth.handleCallback>>>().toEqualTypeOf<OAuthBrowser | StackClient | Session>()
  })
})

describe("ConnectedAccounts error unions", () => {
  it("getAccessToken: missing scope and not connected are Option.none, not errors", () => {
    type E = ErrorOf<ReturnType<typeof ConnectedAccounts.getAccessToken>>
    expectTypeOf<E>().toEqualTypeOf<
      | KnownErrors.OauthProviderNotFoundOrNotEnabled
      | KnownErrors.OauthAccessTokenNotAvailableWithSharedOauthKeys
      | KnownErrors.CannotGetOwnUserWithoutUser
      | ClientCommon
      | SessionCommon
      | UserNotSignedIn
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<Extract<E, KnownErrors.OauthConnectionDoesNotHaveRequiredScope>>().toEqualTypeOf<never>()
    expectTypeOf<Extract<E, KnownErrors.OauthConnectionNotConnectedToUser>>().toEqualTypeOf<never>()
  })
})
