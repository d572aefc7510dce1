/**
 * Type tests: the query cache never changes a caller's types (success, error union,
 * requirements), and the React hooks expose the effect's success and error types.
 * Checked by `tsc` (npm run typecheck), run by vitest as a no-op at run time.
 */
import { Context, Data, Effect } from "effect"
import type { Exit, Layer } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import * as QueryCache from "../../src/cache/QueryCache.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import type { CurrentUser } from "../../src/users/User.js"
import type { StackMutationResult, StackQueryResult } from "../../react/index.js"
import { useStackMutation, useStackQuery, useStackSuspenseQuery, useUser } from "../../react/index.js"
import type { ErrorOf, RequirementsOf } from "./support.js"

class Boom extends Data.TaggedError("Boom")<{}> {}
class Needed extends Context.Service<Needed, { readonly value: number }>()("test/Needed") {}

describe("QueryCache types", () => {
  it("cached keeps the effect's type exactly: no added requirement, no added error", () => {
    const effect = Effect.flatMap(Needed, (needed) => (needed.value > 0 ? Effect.succeed("ok" as const) : Effect.fail(new Boom())))
    const cached = QueryCache.cached(["x"], effect)
    expectTypeOf(cached).toEqualTypeOf<Effect.Effect<"ok", Boom, Needed>>()
    expectTypeOf(QueryCache.invalidate(["x"])).toEqualTypeOf<Effect.Effect<void>>()
    expectTypeOf(QueryCache.invalidating(["x"])(effect)).toEqualTypeOf<typeof effect>()
  })

  it("Users.getCurrent still needs only the client services", () => {
    expectTypeOf<RequirementsOf<ReturnType<typeof Users.getCurrent>>>().toEqualTypeOf<StackClient | Session>()
    // signed out and deleted users are a `none`, not an error: the cache did not add them back
    expectTypeOf<Extract<ErrorOf<ReturnType<typeof Users.getCurrent>>, { readonly _tag: "UserNotSignedIn" }>>().toEqualTypeOf<never>()
  })

  it("Stack's layers provide the cache", () => {
    type Provided = ReturnType<typeof Stack.layerClient> extends Layer.Layer<infer A, infer _E, infer _R> ? A : never
    expectTypeOf<QueryCache.QueryCache>().toMatchTypeOf<Provided>()
  })
})

describe("React hook types", () => {
  it("useStackQuery / useStackSuspenseQuery / useStackMutation carry the effect's types", () => {
    const effect = Effect.fail(new Boom()) as Effect.Effect<number, Boom>
    expectTypeOf<ReturnType<typeof useStackQuery<number, Boom>>>().toEqualTypeOf<StackQueryResult<number, Boom>>()
    expectTypeOf<ReturnType<typeof useStackSuspenseQuery<number, Boom>>>().toEqualTypeOf<number>()
    type Mutation = StackMutationResult<[string], number, Boom>
    expectTypeOf<Mutation["run"]>().toEqualTypeOf<(...args: [string]) => Promise<Exit.Exit<number, Boom>>>()
    expectTypeOf(effect).toEqualTypeOf<Effect.Effect<number, Boom>>()
    expectTypeOf<typeof useStackMutation>().toBeFunction()
  })

  it("useUser: a user or null with 'return-null', a user with 'throw'", () => {
    type Plain = Extract<ReturnType<typeof useUser<"return-null">>, { status: "success" }>["data"]
    expectTypeOf<Plain>().toEqualTypeOf<CurrentUser | null>()
    type Throwing = Extract<ReturnType<typeof useUser<"throw">>, { status: "success" }>["data"]
    expectTypeOf<Throwing>().toEqualTypeOf<CurrentUser>()
  })
})
