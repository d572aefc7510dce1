/**
 * Type tests of the issue 15 hooks (checked by `tsc`; the hooks are never called here): the server
 * hooks come from `makeStackHooks` only for a runtime with server access, `useMfaSignIn` accepts
 * only sign-ins the runtime can run and its failed state excludes the multi-factor error, the token
 * hooks give strings or `null`, and `useUser`'s anonymous policies type the user.
 */
import { ManagedRuntime } from "effect"
import { describe, expect, expectTypeOf, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import type { CurrentUser, ServerUser } from "../../src/users/User.js"
import { makeStackHooks } from "../../react/index.js"
import type { MfaSignInState } from "../../react/index.js"

const keys = { projectId: "p", publishableClientKey: "pck_x" }
const client = makeStackHooks(ManagedRuntime.make(Stack.layerClient(keys)))
const server = makeStackHooks(ManagedRuntime.make(Stack.layerServer({ ...keys, secretServerKey: "ssk_x" })))

/** Never called: hooks only run inside a component. */
const typeOnly = (_body: () => void): void => {}

describe("issue 15 hooks: types", () => {
  it("server hooks exist only for a runtime with server access", () => {
    expect("useServerUser" in server).toBe(true)
    typeOnly(() => {
      // @ts-expect-error a client runtime has no server hooks
      client.useServerUser("id")
      // @ts-expect-error nor the team member permissions of any user
      client.useTeamMemberPermissions("team", "user")
      expectTypeOf(server.useServerUser("id").data).toEqualTypeOf<ServerUser | null | undefined>()
      expectTypeOf(server.useServerUsers().data?.items).toEqualTypeOf<ReadonlyArray<ServerUser> | undefined>()
    })
  })

  it("useMfaSignIn takes sign-ins the runtime can run; 'failed' never holds MultiFactorAuthenticationRequired", () => {
    typeOnly(() => {
      // @ts-expect-error ServerUsers.list needs ServerAccess
      client.useMfaSignIn(() => ServerUsers.list())
      const mfa = client.useMfaSignIn((email: string) => Password.signInWithPassword({ email, password: "x" }))
      type Failed = Extract<typeof mfa.state, { readonly step: "failed" }>["error"]
      expectTypeOf<Extract<Failed, { readonly _tag: "MultiFactorAuthenticationRequired" }>>().toBeNever()
      expectTypeOf<Extract<Failed, { readonly _tag: "InvalidTotpCode" }>>().toBeNever()
      expectTypeOf(mfa.signIn).parameters.toEqualTypeOf<[string]>()
    })
    expectTypeOf<MfaSignInState<number, never>["step"]>().toEqualTypeOf<
      "idle" | "signing-in" | "needs-code" | "submitting" | "wrong-code" | "signed-in" | "failed"
    >()
  })

  it("token hooks give strings or null; useUser's anonymous policies type the user", () => {
    typeOnly(() => {
      expectTypeOf(client.useAccessToken().data).toEqualTypeOf<string | null | undefined>()
      expectTypeOf(client.useAuthHeaders().data).toEqualTypeOf<Record<string, string> | undefined>()
      expectTypeOf(client.useUser({ or: "anonymous" }).data).toEqualTypeOf<CurrentUser | undefined>()
      expectTypeOf(client.useUser({ or: "anonymous-if-exists" }).data).toEqualTypeOf<CurrentUser | null | undefined>()
    })
    expect([typeof client.useAccessToken, typeof client.useAuthHeaders, typeof client.useMfaSignIn]).toEqual(["function", "function", "function"])
  })
})
