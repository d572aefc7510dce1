/**
 * Type tests: the error channels and requirements of the redirect functions and the server
 * rendering helpers are pinned. Checked by `tsc`, a no-op at run time.
 */
import type { Layer } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { StackClient } from "../../src/core/StackClient.js"
import * as CookieTokenStore from "../../src/next/CookieTokenStore.js"
import * as RequestSession from "../../src/next/RequestSession.js"
import type { RefreshError, Session } from "../../src/session/Session.js"
import type { TokenStore, TokenStoreError } from "../../src/session/TokenStore.js"
import * as Redirects from "../../src/urls/Redirects.js"
import type { UntrustedRedirectUrl } from "../../src/urls/UrlTrust.js"
import type { ErrorOf, RequirementsOf } from "./support.js"

describe("redirects", () => {
  it("redirects fail with exactly the trust, unavailable and failed errors, and require nothing", () => {
    type Errors = UntrustedRedirectUrl | Redirects.RedirectUnavailable | Redirects.RedirectFailed
    expectTypeOf<ErrorOf<ReturnType<typeof Redirects.redirectToSignIn>>>().toEqualTypeOf<Errors>()
    expectTypeOf<ErrorOf<ReturnType<typeof Redirects.redirectToAfterSignIn>>>().toEqualTypeOf<Errors>()
    expectTypeOf<ErrorOf<ReturnType<typeof Redirects.redirectToUrl>>>().toEqualTypeOf<Errors>()
    expectTypeOf<ErrorOf<ReturnType<typeof Redirects.redirectToCliAuthConfirm>>>().toEqualTypeOf<Errors>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Redirects.redirectTo>>>().toEqualTypeOf<never>()
    expectTypeOf<ErrorOf<ReturnType<typeof Redirects.urlFor>>>().toEqualTypeOf<UntrustedRedirectUrl>()
    expectTypeOf<ErrorOf<ReturnType<typeof Redirects.ensureTrusted>>>().toEqualTypeOf<UntrustedRedirectUrl>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Redirects.urlFor>>>().toEqualTypeOf<never>()
  })
})

describe("server rendering helpers", () => {
  it("the cookie store never fails; the request store fails only on a malformed header", () => {
    expectTypeOf<ReturnType<typeof CookieTokenStore.layer>>().toEqualTypeOf<Layer.Layer<TokenStore>>()
    expectTypeOf<ReturnType<typeof CookieTokenStore.layerSession>>().toEqualTypeOf<
      Layer.Layer<Session | TokenStore, never, StackClient>
    >()
    expectTypeOf<ReturnType<typeof RequestSession.layerSession>>().toEqualTypeOf<
      Layer.Layer<Session | TokenStore, TokenStoreError, StackClient>
    >()
    expectTypeOf<ErrorOf<typeof RequestSession.currentAuthHeaders>>().toEqualTypeOf<RefreshError>()
    expectTypeOf<RequirementsOf<typeof RequestSession.currentAuthHeaders>>().toEqualTypeOf<Session>()
  })
})
