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
import type { InvalidArgument, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import * as Stack from "../../src/Stack.js"
import type { Session } from "../../src/session/Session.js"
import * as Users from "../../src/users/Users.js"
import { Schema } from "effect"
import type { ClientCommon, ErrorOf, RequirementsOf, SessionCommon, Transport } from "./support.js"

describe("error unions", () => {
  it("Password.signInWithPassword fails with exactly its known errors plus the common set", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Password.signInWithPassword>>>().toEqualTypeOf<
      | KnownErrors.PasswordAuthenticationNotEnabled
      | KnownErrors.EmailPasswordMismatch
      | KnownErrors.MultiFactorAuthenticationRequired
      | ClientCommon
      | Transport
      | InvalidArgument
    >()
  })

  it("Users.getCurrent maps 'no user' to Option.none: no UserNotSignedIn, no CannotGetOwnUserWithoutUser", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Users.getCurrent>>>().toEqualTypeOf<ClientCommon | SessionCommon | Transport>()
  })

  it("Users.updateCurrent requires a signed-in user", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Users.updateCurrent>>>().toEqualTypeOf<
      | KnownErrors.CannotGetOwnUserWithoutUser
      | KnownErrors.UserEmailAlreadyExists
      | KnownErrors.TeamMembershipNotFound
      | ClientCommon
      | SessionCommon
      | UserNotSignedIn
      | Transport
      | InvalidArgument
    >()
  })

  it("Sessions.signOut swallows refresh-token and expired-token errors", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Sessions.signOut>>>().toEqualTypeOf<
      | ClientCommon
      | KnownErrors.InvalidProjectForAccessToken
      | KnownErrors.InvalidOauthClientIdOrSecret
      | KnownErrors.InvalidScope
      | Transport
      | InvalidArgument
    >()
  })

  it("Users.getById (server access) adds the server-key errors and UserNotFound", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Users.getById>>>().toEqualTypeOf<
      | KnownErrors.UserNotFound
      | ClientCommon
      | KnownErrors.ServerAuthenticationRequired
      | KnownErrors.InvalidSecretServerKey
      | Transport
      | InvalidArgument
    >()
  })
})

describe("access levels are types", () => {
  it("a server call requires ServerAccess; a client call does not", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof Users.getById>>>().toEqualTypeOf<StackClient | ServerAccess>()
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
    const serverCall = Users.getById("2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11").pipe(Effect.provide(client))
    // @ts-expect-error ServerAccess is still required: the program is not runnable
    const runnable: Effect.Effect<unknown, unknown, never> = serverCall
    const adminCall = Endpoint.call(adminOnly, {}).pipe(Effect.provide(client))
    // @ts-expect-error AdminAccess is still required
    const runnableAdmin: Effect.Effect<unknown, unknown, never> = adminCall
    const server = Stack.layerServer({ projectId: "internal", secretServerKey: "ssk_x" })
    const provided: Effect.Effect<unknown, unknown, never> = Users.getById("x").pipe(Effect.provide(server))
    void [runnable, runnableAdmin, provided, Layer]
  })
})
