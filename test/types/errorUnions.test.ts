/**
 * Type tests: the error channel of public functions is pinned, and access levels are enforced by
 * the compiler. Checked by `tsc` (npm run typecheck), run by vitest as a no-op at run time.
 */
import { Effect, Layer } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import type { AdminAccess, ServerAccess } from "../../src/core/Access.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import type { ConfigurationError, InvalidArgument, RefreshFailure, SessionError, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import * as Stack from "../../src/Stack.js"
import type { Session } from "../../src/session/Session.js"
import * as Users from "../../src/users/Users.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { Schema } from "effect"
import type { ClientCommon, ErrorOf, RequirementsOf, ServerCommon, SessionCommon, SuccessOf, TagCount, Transport } from "./support.js"

describe("error unions", () => {
  it("Password.signInWithPassword fails with its business errors, SchemaError, one ConfigurationError and the transport's: 12 tags (14 before grouping)", () => {
    type E = ErrorOf<ReturnType<typeof Password.signInWithPassword>>
    expectTypeOf<E>().toEqualTypeOf<
      | KnownErrors.PasswordAuthenticationNotEnabled
      | KnownErrors.EmailPasswordMismatch
      | KnownErrors.MultiFactorAuthenticationRequired
      | KnownErrors.SchemaError
      | ConfigurationError<KnownErrors.CurrentProjectNotFound | KnownErrors.InvalidPublishableClientKey | KnownErrors.PublishableClientKeyRequiredForProject>
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<TagCount<E>>().toEqualTypeOf<12>()
  })

  it("Users.getCurrent maps 'no user' to Option.none: no UserNotSignedIn, no CannotGetOwnUserWithoutUser", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Users.getCurrent>>>().toEqualTypeOf<ClientCommon | SessionCommon | Transport>()
  })

  it("Users.updateCurrent requires a signed-in user; the session's rejections and refresh failures are one SessionError: 16 tags (22 before grouping)", () => {
    type E = ErrorOf<ReturnType<typeof Users.updateCurrent>>
    expectTypeOf<E>().toEqualTypeOf<
      | KnownErrors.CannotGetOwnUserWithoutUser
      | KnownErrors.UserEmailAlreadyExists
      | KnownErrors.TeamMembershipNotFound
      | KnownErrors.PasswordTooShort
      | KnownErrors.PasswordTooLong
      | KnownErrors.SchemaError
      | ConfigurationError<KnownErrors.CurrentProjectNotFound | KnownErrors.InvalidPublishableClientKey | KnownErrors.PublishableClientKeyRequiredForProject>
      | SessionError<KnownErrors.UnparsableAccessToken | KnownErrors.AccessTokenExpired | KnownErrors.InvalidProjectForAccessToken | RefreshFailure>
      | UserNotSignedIn
      | Transport
      | InvalidArgument
    >()
    expectTypeOf<TagCount<E>>().toEqualTypeOf<16>()
    // the refresh grant's InvalidOauthClientIdOrSecret is a reason of the SessionError, not a tag of its own
    expectTypeOf<Extract<E, KnownErrors.InvalidOauthClientIdOrSecret>>().toEqualTypeOf<never>()
  })

  it("Sessions.signOut swallows the refresh-token family, UserNotSignedIn and the SessionErrors of an ended session", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Sessions.signOut>>>().toEqualTypeOf<
      | ClientCommon
      | SessionError<KnownErrors.InvalidAccessToken | KnownErrors.RefreshTokenNotFoundOrExpired | KnownErrors.ProviderRejected | RefreshFailure>
      | Transport
      | InvalidArgument
    >()
  })

  it("ServerUsers.getById (server access) adds the server-key reasons to the ConfigurationError, and UserNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof ServerUsers.getById>>>().toEqualTypeOf<KnownErrors.UserNotFound | ServerCommon | Transport | InvalidArgument>()
  })

  it("a client call's ConfigurationError never has a server or admin key as its reason", () => {
    type Reason = Extract<ErrorOf<ReturnType<typeof Password.signInWithPassword>>, { readonly _tag: "ConfigurationError" }>["reason"]
    expectTypeOf<Extract<Reason, KnownErrors.InvalidSecretServerKey | KnownErrors.InvalidSuperSecretAdminKey>>().toEqualTypeOf<never>()
  })
})

describe("grouped errors are matched by tag, then by reason", () => {
  const signIn = Password.signInWithPassword({ email: "a@example.com", password: "secret" })

  it("Effect.catchTag on a business error still works and removes exactly it", () => {
    const caught = signIn.pipe(Effect.catchTag("EmailPasswordMismatch", () => Effect.succeed("wrong password" as const)))
    expectTypeOf<ErrorOf<typeof caught>>().toEqualTypeOf<Exclude<ErrorOf<typeof signIn>, KnownErrors.EmailPasswordMismatch>>()
  })

  it("a ConfigurationError's reason narrows by _tag to the known error, its typed details included", () => {
    const caught = signIn.pipe(
      Effect.catchTag("ConfigurationError", (error) => {
        if (error.reason._tag === "InvalidPublishableClientKey") {
          expectTypeOf(error.reason).toEqualTypeOf<KnownErrors.InvalidPublishableClientKey>()
          expectTypeOf(error.reason.details.project_id).toEqualTypeOf<string>()
          return Effect.succeed("check the key" as const)
        }
        expectTypeOf(error.reason).toEqualTypeOf<KnownErrors.CurrentProjectNotFound | KnownErrors.PublishableClientKeyRequiredForProject>()
        return Effect.fail(error)
      })
    )
    expectTypeOf<Extract<ErrorOf<typeof caught>, { readonly _tag: "ConfigurationError" }>>().toEqualTypeOf<
      ConfigurationError<KnownErrors.CurrentProjectNotFound | KnownErrors.InvalidPublishableClientKey | KnownErrors.PublishableClientKeyRequiredForProject>
    >()
  })

  it("a SessionError's reason narrows by _tag", () => {
    const caught = Users.updateCurrent({ displayName: "Ada" }).pipe(
      Effect.catchTag(
        "SessionError",
        (error) => error.reason._tag === "AccessTokenExpired" ? Effect.succeed(error.reason.details.expired_at_millis) : Effect.fail(error)
      )
    )
    expectTypeOf<SuccessOf<typeof caught>>().toEqualTypeOf<SuccessOf<ReturnType<typeof Users.updateCurrent>> | number | null | undefined>()
  })
})

describe("access levels are types", () => {
  it("a server call requires ServerAccess; a client call does not", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof ServerUsers.getById>>>().toEqualTypeOf<StackClient | ServerAccess>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Users.getCurrent>>>().toEqualTypeOf<StackClient | Session>()
  })

  it("an app that provided only client access cannot compile a server-only or admin-only call", () => {
    const client = Stack.layerClient({ projectId: "internal" })
    const adminOnly = Endpoint.make({
      name: "Test.adminOnly",
      method: "GET",
      path: "/internal/metrics",
      access: "admin",
      session: "none",
      success: Schema.Unknown,
      errors: []
    })
    expectTypeOf<RequirementsOf<ReturnType<typeof Endpoint.call<typeof adminOnly>>>>().toEqualTypeOf<StackClient | AdminAccess>()
    const serverCall = ServerUsers.getById("2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11").pipe(Effect.provide(client))
    // @ts-expect-error ServerAccess is still required: the program is not runnable
    const runnable: Effect.Effect<unknown, unknown, never> = serverCall
    const adminCall = Endpoint.call(adminOnly, {}).pipe(Effect.provide(client))
    // @ts-expect-error AdminAccess is still required
    const runnableAdmin: Effect.Effect<unknown, unknown, never> = adminCall
    const server = Stack.layerServer({ projectId: "internal", secretServerKey: "ssk_x" })
    const provided: Effect.Effect<unknown, unknown, never> = ServerUsers.getById("x").pipe(Effect.provide(server))
    void [runnable, runnableAdmin, provided, Layer]
  })
})
