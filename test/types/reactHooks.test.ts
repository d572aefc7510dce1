/**
 * Type tests of the React hooks typed by the app's runtime (`makeStackHooks(runtime)`): a client
 * runtime refuses server-only effects in every hook, a server runtime accepts them, the domain
 * hooks come only with a runtime of a Stack layer, and every query result carries `waiting`; the
 * plain hooks, with no runtime declared (`Register`), accept client access only (the declared
 * case: `registeredRuntime.test.ts`, a program of its own since the declaration is global).
 * Checked by `tsc`; a no-op at run time (the hooks are never called here).
 */
import { Effect, Layer, ManagedRuntime } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { ServerAccess } from "../../src/core/Access.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import type * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import type * as Session from "../../src/session/Session.js"
import type * as TeamMemberProfiles from "../../src/teams/TeamMemberProfiles.js"
import * as Users from "../../src/users/Users.js"
import type { CurrentUser } from "../../src/users/User.js"
import {
  makeStackHooks,
  useMetrics,
  useMfaSignIn,
  usePartialUser,
  useStackCallback,
  useStackMutation,
  useStackQuery,
  useStackSuspenseQuery,
  useSuspenseInternalApiKeys,
  useSuspenseTeamProfile
} from "../../react/index.js"
import type { PartialUser, RegisteredServices, StackMutationResult, StackQueryResult, UseUserError } from "../../react/index.js"
import type { ErrorOf, SuccessOf } from "./support.js"

const keys = { projectId: "p", publishableClientKey: "pck_x" }
const clientRuntime = ManagedRuntime.make(Stack.layerClient(keys))
const serverRuntime = ManagedRuntime.make(Stack.layerServer({ ...keys, secretServerKey: "ssk_x" }))
const client = makeStackHooks(clientRuntime)
const server = makeStackHooks(serverRuntime)

/** Never called: hooks only run inside a component. */
const typeOnly = (_body: () => void): void => {}

describe("makeStackHooks: hooks typed by the runtime's services", () => {
  it("a client runtime does not compile a server-only call in any hook", () => {
    typeOnly(() => {
      // @ts-expect-error ServerUsers.list needs ServerAccess, which Stack.layerClient does not provide
      client.useStackQuery(ServerUsers.list(), [])
      // @ts-expect-error the Suspense form refuses it too
      client.useStackSuspenseQuery(ServerUsers.list(), [])
      // @ts-expect-error a mutation's effect is checked as well
      client.useStackMutation((userId: string) => ServerUsers.delete(userId))
      // @ts-expect-error and a callback's
      client.useStackCallback(() => ServerUsers.list())
    })
  })

  it("a client runtime accepts client calls and infers their value and error", () => {
    typeOnly(() => {
      const channels = client.useStackQuery(ContactChannels.list(), [])
      expectTypeOf(channels).toEqualTypeOf<
        StackQueryResult<SuccessOf<ReturnType<typeof ContactChannels.list>>, ErrorOf<ReturnType<typeof ContactChannels.list>>>
      >()
      const rename = client.useStackMutation((name: string) => Users.updateCurrent({ displayName: name }))
      expectTypeOf(rename).toEqualTypeOf<
        StackMutationResult<[name: string], SuccessOf<ReturnType<typeof Users.updateCurrent>>, ErrorOf<ReturnType<typeof Users.updateCurrent>>>
      >()
      expectTypeOf(client.useStackSuspenseQuery(Effect.succeed(1), [])).toEqualTypeOf<number>()
    })
  })

  it("a server runtime accepts server-only calls", () => {
    typeOnly(() => {
      const users = server.useStackQuery(ServerUsers.list(), [])
      expectTypeOf(users).toEqualTypeOf<
        StackQueryResult<SuccessOf<ReturnType<typeof ServerUsers.list>>, ErrorOf<ReturnType<typeof ServerUsers.list>>>
      >()
      server.useStackCallback((userId: string) => ServerUsers.delete(userId))
    })
  })

  it("useStackRuntime returns the runtime with its services", () => {
    typeOnly(() => {
      expectTypeOf(server.useStackRuntime()).toEqualTypeOf(serverRuntime)
      expectTypeOf<ServerAccess>().toMatchTypeOf<ManagedRuntime.ManagedRuntime.Services<ReturnType<typeof server.useStackRuntime>>>()
    })
  })

  it("the domain hooks come with a runtime of a Stack layer, not with one lacking its services", () => {
    typeOnly(() => {
      expectTypeOf(client.useUser({ or: "throw" })).toEqualTypeOf<StackQueryResult<CurrentUser, UseUserError<"throw">>>()
      expectTypeOf(server.useTeams).toBeFunction()
      const bare = makeStackHooks(ManagedRuntime.make(Layer.empty))
      // @ts-expect-error a runtime without the Stack services has no useUser
      bare.useUser()
      // @ts-expect-error nor can its useStackQuery run an SDK call
      bare.useStackQuery(Users.getCurrent(), [])
      bare.useStackQuery(Effect.succeed("plain"), [])
    })
  })

  it("every query result has a waiting flag, false while loading", () => {
    type Result = StackQueryResult<number, string>
    expectTypeOf<Result["waiting"]>().toEqualTypeOf<boolean>()
    expectTypeOf<Extract<Result, { status: "loading" }>["waiting"]>().toEqualTypeOf<false>()
    expectTypeOf<StackMutationResult<[], number, string>["error"]>().toEqualTypeOf<string | undefined>()
  })

  it("the plain hooks, with no runtime declared (Register), accept client access only", () => {
    typeOnly(() => {
      // @ts-expect-error ServerUsers.list needs ServerAccess: a client app does not compile it
      useStackQuery(ServerUsers.list(), [])
      // @ts-expect-error the Suspense form refuses it too
      useStackSuspenseQuery(ServerUsers.list(), [])
      // @ts-expect-error a mutation's effect is checked as well
      useStackMutation((userId: string) => ServerUsers.delete(userId))
      // @ts-expect-error and a callback's
      useStackCallback(() => ServerUsers.list())
      // @ts-expect-error and the MFA sign-in's
      useMfaSignIn(() => ServerUsers.list())
      expectTypeOf<RegisteredServices>().toEqualTypeOf<Stack.ClientServices>()
      const channels = useStackQuery(ContactChannels.list(), [])
      expectTypeOf(channels).toEqualTypeOf<
        StackQueryResult<SuccessOf<ReturnType<typeof ContactChannels.list>>, ErrorOf<ReturnType<typeof ContactChannels.list>>>
      >()
      expectTypeOf(useStackSuspenseQuery(Effect.succeed(1), [])).toEqualTypeOf<number>()
      useStackMutation((name: string) => Users.updateCurrent({ displayName: name }))
      useStackCallback(() => ContactChannels.list())
      // @ts-expect-error the admin hooks need a declared runtime with AdminAccess
      useMetrics()
      // @ts-expect-error nor their Suspense forms
      useSuspenseInternalApiKeys()
      expectTypeOf(usePartialUser()).toEqualTypeOf<StackQueryResult<PartialUser | null, Session.RefreshError>>()
      expectTypeOf(useSuspenseTeamProfile("team")).toEqualTypeOf<TeamMemberProfiles.TeamMemberProfile>()
    })
  })

  it("makeStackHooks gives the admin hooks to a runtime with AdminAccess only", () => {
    typeOnly(() => {
      const admin = makeStackHooks(ManagedRuntime.make(Stack.layerAdmin({ ...keys, superSecretAdminKey: "sak_x" })))
      expectTypeOf(admin.useMetrics).toBeFunction()
      expectTypeOf(admin.useSuspenseTeamPermissionDefinitions()).toEqualTypeOf<ReadonlyArray<PermissionDefinitions.PermissionDefinition>>()
      // @ts-expect-error a server runtime has no AdminAccess
      server.useInternalApiKeys()
      // @ts-expect-error nor a client one
      client.useSvixToken()
      expectTypeOf(client.useOwnedProjects).toBeFunction()
      expectTypeOf(client.usePartialUser).toBeFunction()
    })
  })
})
