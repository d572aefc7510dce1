/**
 * Type tests of schema-typed metadata (`Metadata.make`): users and teams carry the decoded types
 * of the schemas (inferred, no annotation), updates take them, kinds without a schema stay
 * `unknown`, and the error channels are the plain functions' plus `MetadataDecodeError` (reads)
 * and `InvalidArgument` (writes). Checked by `tsc`.
 */
import type { Effect } from "effect"
import { Option, Schema } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { InvalidArgument } from "../../src/core/Errors.js"
import * as Metadata from "../../src/users/Metadata.js"
import type * as GetUser from "../../src/auth/GetUser.js"
import type * as ServerTeams from "../../src/teams/ServerTeams.js"
import type * as Teams from "../../src/teams/Teams.js"
import type * as ServerUsers from "../../src/users/ServerUsers.js"
import type { CurrentUser, ServerUser } from "../../src/users/User.js"
import type * as Users from "../../src/users/Users.js"
import { useStackQuery } from "../../react/index.js"
import type { ErrorOf, RequirementsOf, SuccessOf } from "./support.js"

const AppMetadata = Metadata.make({
  user: {
    client: Metadata.withDefault(Schema.Struct({ theme: Schema.Literals(["dark", "light"]) }), () => ({ theme: "light" as const })),
    server: Schema.Struct({ stripeCustomerId: Schema.String, since: Schema.DateFromString })
  },
  team: { clientReadOnly: Schema.Struct({ tier: Schema.Literals(["free", "pro"]) }) }
})

type Read<F extends (...args: never) => Effect.Effect<unknown, unknown, unknown>> = ReturnType<F>

describe("schema-typed metadata: types", () => {
  it("the signed-in user's clientMetadata.theme is \"dark\" | \"light\"; kinds without a schema stay unknown", () => {
    type User = Option.Option.Value<SuccessOf<Read<typeof AppMetadata.Users.getCurrent>>>
    expectTypeOf<User["clientMetadata"]["theme"]>().toEqualTypeOf<"dark" | "light">()
    expectTypeOf<User["clientReadOnlyMetadata"]>().toEqualTypeOf<unknown>()
    expectTypeOf<User["primaryEmail"]>().toEqualTypeOf<string | null>()
    expectTypeOf<User>().not.toHaveProperty("serverMetadata")
  })

  it("a server user's serverMetadata is the decoded type (Date, not the wire's string); selectedTeam carries the team schemas", () => {
    type User = SuccessOf<Read<typeof AppMetadata.ServerUsers.getById>>
    expectTypeOf<User["serverMetadata"]>().toEqualTypeOf<{ readonly stripeCustomerId: string; readonly since: Date }>()
    expectTypeOf<User["lastActiveAt"]>().toEqualTypeOf<Date>()
    expectTypeOf<NonNullable<User["selectedTeam"]>["clientReadOnlyMetadata"]>().toEqualTypeOf<{ readonly tier: "free" | "pro" }>()
    expectTypeOf<NonNullable<User["selectedTeam"]>["serverMetadata"]>().toEqualTypeOf<unknown>()
    expectTypeOf<User["selectedTeam"]>().toMatchTypeOf<object | null>()
    type Page = SuccessOf<Read<typeof AppMetadata.ServerUsers.list>>
    expectTypeOf<Page["items"][number]["clientMetadata"]["theme"]>().toEqualTypeOf<"dark" | "light">()
  })

  it("teams carry the team schemas", () => {
    type Team = SuccessOf<Read<typeof AppMetadata.Teams.get>>
    expectTypeOf<Team["clientReadOnlyMetadata"]>().toEqualTypeOf<{ readonly tier: "free" | "pro" }>()
    expectTypeOf<Team["clientMetadata"]>().toEqualTypeOf<unknown>()
    type ServerTeamList = SuccessOf<Read<typeof AppMetadata.ServerTeams.list>>
    expectTypeOf<ServerTeamList[number]["clientReadOnlyMetadata"]["tier"]>().toEqualTypeOf<"free" | "pro">()
  })

  it("reads fail with the plain function's errors plus MetadataDecodeError, and need the same services", () => {
    expectTypeOf<ErrorOf<Read<typeof AppMetadata.Users.getCurrent>>>().toEqualTypeOf<
      ErrorOf<ReturnType<typeof Users.getCurrent>> | Metadata.MetadataDecodeError
    >()
    expectTypeOf<RequirementsOf<Read<typeof AppMetadata.Users.getCurrent>>>().toEqualTypeOf<
      RequirementsOf<ReturnType<typeof Users.getCurrent>>
    >()
    expectTypeOf<ErrorOf<Read<typeof AppMetadata.ServerTeams.get>>>().toEqualTypeOf<
      ErrorOf<ReturnType<typeof ServerTeams.get>> | Metadata.MetadataDecodeError
    >()
  })

  it("writes take the decoded types and add InvalidArgument (encoding) to the plain errors", () => {
    expectTypeOf<Parameters<typeof AppMetadata.Users.updateCurrent>[0]["clientMetadata"]>().toEqualTypeOf<
      { readonly theme: "dark" | "light" } | undefined
    >()
    expectTypeOf<ErrorOf<Read<typeof AppMetadata.ServerUsers.update>>>().toEqualTypeOf<
      ErrorOf<ReturnType<typeof ServerUsers.update>> | InvalidArgument | Metadata.MetadataDecodeError
    >()
    expectTypeOf<ErrorOf<Read<typeof AppMetadata.Teams.update>>>().toEqualTypeOf<
      ErrorOf<ReturnType<typeof Teams.update>> | InvalidArgument | Metadata.MetadataDecodeError
    >()
    // @ts-expect-error: "blue" is not a theme of the schema
    AppMetadata.Users.updateCurrent({ clientMetadata: { theme: "blue" } })
    // @ts-expect-error: the server metadata's `since` is a Date, not the wire's string
    AppMetadata.ServerUsers.update("id", { serverMetadata: { stripeCustomerId: "cus_1", since: "2026-01-01" } })
  })

  it("getUser keeps its policy-dependent success, with the typed user", () => {
    type Thrown = SuccessOf<ReturnType<typeof AppMetadata.getUser<"throw">>>
    expectTypeOf<Thrown["clientMetadata"]["theme"]>().toEqualTypeOf<"dark" | "light">()
    type Returned = SuccessOf<ReturnType<typeof AppMetadata.getUser<"return-null">>>
    expectTypeOf<Option.Option.Value<Returned>["clientMetadata"]["theme"]>().toEqualTypeOf<"dark" | "light">()
    expectTypeOf<ErrorOf<ReturnType<typeof AppMetadata.getUser<"throw">>>>().toEqualTypeOf<
      GetUser.GetUserError<"throw"> | Metadata.MetadataDecodeError
    >()
  })

  it("a React query over a typed function gives the typed user (hooks take the effect's types)", () => {
    const useTheme = () => {
      const user = useStackQuery(AppMetadata.Users.getCurrent(), [])
      return user.status === "success" ? Option.map(user.data, (u) => u.clientMetadata.theme) : Option.none()
    }
    expectTypeOf<ReturnType<typeof useTheme>>().toEqualTypeOf<Option.Option<"dark" | "light">>()
  })

  it("without schemas the users are the plain types", () => {
    const Untyped = Metadata.make({})
    expectTypeOf<Option.Option.Value<SuccessOf<Read<typeof Untyped.Users.getCurrent>>>>().toEqualTypeOf<
      Metadata.TypedUser<CurrentUser, {}>
    >()
    expectTypeOf<Metadata.TypedUser<CurrentUser, {}>>().toMatchTypeOf<CurrentUser>()
    expectTypeOf<CurrentUser>().toMatchTypeOf<Metadata.TypedUser<CurrentUser, {}>>()
    expectTypeOf<SuccessOf<Read<typeof Untyped.ServerUsers.getById>>["serverMetadata"]>().toEqualTypeOf<ServerUser["serverMetadata"]>()
  })
})
