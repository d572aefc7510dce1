/**
 * Schema-typed metadata (issue 15, "beyond both"), against the in-process emulator: the app gives
 * the metadata schemas once (`Metadata.make`), users and teams come back decoded by them, updates
 * are encoded by them before they are sent; a stored value that does not match is a typed
 * `MetadataDecodeError` naming the owner, its id and the field; an update that does not encode is
 * `InvalidArgument` before any request; without schemas the values are the plain modules' values.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Schema, Stream } from "effect"
import { GetUser, Metadata, ServerTeams, ServerUsers, Teams, Users } from "../../src/index.js"
import { setup, within } from "../teams/support.js"

/** Preferences with a date kept as an ISO string on the wire, so decoding visibly changes the value. */
const Preferences = Schema.Struct({
  theme: Schema.Literals(["dark", "light"]),
  since: Schema.DateFromString
})

const AppMetadata = Metadata.make({
  user: {
    client: Metadata.withDefault(Preferences, () => ({ theme: "light" as const, since: new Date(0) })),
    clientReadOnly: Schema.NullOr(Schema.Struct({ plan: Schema.Literals(["free", "pro"]) })),
    server: Schema.NullOr(Schema.Struct({ stripeCustomerId: Schema.String }))
  },
  team: {
    client: Schema.NullOr(Schema.Struct({ color: Schema.String })),
    server: Schema.NullOr(Schema.Struct({ seats: Schema.NumberFromString.check(Schema.isInt()) }))
  }
})

const dark = { theme: "dark" as const, since: new Date("2026-01-02T03:04:05.000Z") }

describe("schema-typed metadata", () => {
  it.effect("a user's client metadata is encoded on update, stored encoded, and read back decoded", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const updated = yield* within(ada.client)(AppMetadata.Users.updateCurrent({ clientMetadata: dark }))
      expect(updated.clientMetadata).toEqual(dark)
      expect(updated.clientMetadata.since).toBeInstanceOf(Date)

      const plain = Option.getOrThrow(yield* within(ada.client)(Users.getCurrent()))
      expect(plain.clientMetadata).toEqual({ theme: "dark", since: "2026-01-02T03:04:05.000Z" })
      const typed = Option.getOrThrow(yield* within(ada.client)(AppMetadata.Users.getCurrent()))
      expect(typed.clientMetadata).toEqual(dark)
      expect(typed.primaryEmail).toBe("ada@example.com")
    }))

  it.effect("metadata never set (null) reads as withDefault's value; null stays null under a NullOr schema", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const user = yield* within(server)(AppMetadata.ServerUsers.getById(ada.userId))
      expect(user.clientMetadata).toEqual({ theme: "light", since: new Date(0) })
      expect(user.clientReadOnlyMetadata).toBeNull()
      expect(user.serverMetadata).toBeNull()
    }))

  it.effect("a stored value that does not match its schema fails with MetadataDecodeError naming the user and the field", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      yield* within(server)(ServerUsers.update(ada.userId, { clientReadOnlyMetadata: { plan: "enterprise" } }))

      const error = yield* Effect.flip(within(server)(AppMetadata.ServerUsers.getById(ada.userId)))
      expect(error).toBeInstanceOf(Metadata.MetadataDecodeError)
      expect(error).toMatchObject({ _tag: "MetadataDecodeError", owner: "user", id: ada.userId, field: "clientReadOnlyMetadata" })
      // the message says where the value fails, never the stored value (it may be personal data)
      expect((error as Metadata.MetadataDecodeError).message).toContain("plan")
      expect((error as Metadata.MetadataDecodeError).message).not.toContain("enterprise")
      // the plain read still answers the whole user
      const plain = yield* within(server)(ServerUsers.getById(ada.userId))
      expect(plain.clientReadOnlyMetadata).toEqual({ plan: "enterprise" })
      // and the client's own read names the same field
      const clientError = yield* Effect.flip(within(ada.client)(AppMetadata.Users.getCurrent()))
      expect(clientError).toMatchObject({ _tag: "MetadataDecodeError", owner: "user", id: ada.userId, field: "clientReadOnlyMetadata" })
    }))

  it.effect("an update whose metadata does not encode fails with InvalidArgument before any request", () =>
    Effect.gen(function* () {
      const { signUp, server, requests } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const before = requests()
      const invalid = { theme: "dark" as const, since: new Date(Number.NaN) }
      const error = yield* Effect.flip(within(ada.client)(AppMetadata.Users.updateCurrent({ clientMetadata: invalid })))
      expect(error).toMatchObject({ _tag: "InvalidArgument", argument: "clientMetadata" })
      const serverError = yield* Effect.flip(
        within(server)(AppMetadata.ServerTeams.update("00000000-0000-4000-8000-000000000000", { serverMetadata: { seats: 2.5 } }))
      )
      expect(serverError).toMatchObject({ _tag: "InvalidArgument", argument: "serverMetadata" })
      expect(requests()).toBe(before)
    }))

  it.effect("server updates encode all three kinds; list decodes every user of the page", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      yield* signUp("bob@example.com")
      const updated = yield* within(server)(
        AppMetadata.ServerUsers.update(ada.userId, {
          clientMetadata: dark,
          clientReadOnlyMetadata: { plan: "pro" },
          serverMetadata: { stripeCustomerId: "cus_1" }
        })
      )
      expect(updated).toMatchObject({ clientMetadata: dark, clientReadOnlyMetadata: { plan: "pro" }, serverMetadata: { stripeCustomerId: "cus_1" } })
      const page = yield* within(server)(AppMetadata.ServerUsers.list())
      expect(page.items.map((user) => user.clientMetadata.theme).sort()).toEqual(["dark", "light"])
      expect(Option.isNone(page.nextCursor)).toBe(true)
    }))

  it.effect("server create encodes the input; the lazy stream decodes every user it pulls", () =>
    Effect.gen(function* () {
      const { server } = yield* setup()
      const created = yield* within(server)(
        AppMetadata.ServerUsers.create({ primaryEmail: "cy@example.com", clientMetadata: dark, serverMetadata: { stripeCustomerId: "cus_2" } })
      )
      expect(created).toMatchObject({ clientMetadata: dark, serverMetadata: { stripeCustomerId: "cus_2" } })
      expect((yield* within(server)(ServerUsers.getById(created.id))).clientMetadata).toEqual({ theme: "dark", since: "2026-01-02T03:04:05.000Z" })
      const streamed = yield* within(server)(Stream.runCollect(AppMetadata.ServerUsers.stream({ limit: 1 })))
      expect(streamed.map((user) => user.clientMetadata.since)).toEqual([dark.since])
    }))

  it.effect("teams: client and server metadata are encoded and decoded, and a user's selectedTeam is decoded with the team schemas", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const team = yield* within(ada.client)(AppMetadata.Teams.create({ displayName: "Ada's", clientMetadata: { color: "teal" } }))
      expect(team.clientMetadata).toEqual({ color: "teal" })
      const serverTeam = yield* within(server)(AppMetadata.ServerTeams.update(team.id, { serverMetadata: { seats: 5 } }))
      expect(serverTeam.serverMetadata).toEqual({ seats: 5 })
      expect((yield* within(server)(ServerTeams.get(team.id))).serverMetadata).toEqual({ seats: "5" })
      expect((yield* within(ada.client)(AppMetadata.Teams.listMine())).map((t) => t.clientMetadata)).toEqual([{ color: "teal" }])

      yield* within(ada.client)(Users.updateCurrent({ selectedTeamId: team.id }))
      const user = yield* within(server)(AppMetadata.ServerUsers.getById(ada.userId))
      expect(user.selectedTeam?.serverMetadata).toEqual({ seats: 5 })

      yield* within(server)(ServerTeams.update(team.id, { clientMetadata: "not an object" }))
      const error = yield* Effect.flip(within(ada.client)(AppMetadata.Teams.get(team.id)))
      expect(error).toMatchObject({ _tag: "MetadataDecodeError", owner: "team", id: team.id, field: "clientMetadata" })
      expect((yield* within(ada.client)(Teams.get(team.id))).clientMetadata).toBe("not an object")
    }))

  it.effect("getUser keeps its policies and decodes the user", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const thrown = yield* within(ada.client)(AppMetadata.getUser({ or: "throw" }))
      expect(thrown.clientMetadata.theme).toBe("light")
      const returned = yield* within(ada.client)(AppMetadata.getUser())
      expect(Option.map(returned, (user) => user.clientMetadata.theme)).toEqual(Option.some("light"))
      expect(Option.map(yield* within(ada.client)(GetUser.getUser()), (user) => user.clientMetadata)).toEqual(Option.some(null))
    }))

  it.effect("ServerUsers.getUser keeps its policies and decodes the server view", () =>
    Effect.gen(function* () {
      const { server } = yield* setup()
      expect(yield* within(server)(AppMetadata.ServerUsers.getUser())).toEqual(Option.none())
      const anonymous = yield* within(server)(AppMetadata.ServerUsers.getUser({ or: "anonymous" }))
      expect([anonymous.isAnonymous, anonymous.clientMetadata.theme, anonymous.serverMetadata]).toEqual([true, "light", null])
    }))

  it.effect("without schemas the values are the plain modules' values", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      yield* within(server)(ServerUsers.update(ada.userId, { clientMetadata: { any: ["thing", 1] }, serverMetadata: 42 }))
      const untyped = Metadata.make({})
      expect(yield* within(server)(untyped.ServerUsers.getById(ada.userId))).toEqual(yield* within(server)(ServerUsers.getById(ada.userId)))
      expect(yield* within(ada.client)(untyped.Users.updateCurrent({ clientMetadata: [1, 2] }))).toMatchObject({ clientMetadata: [1, 2] })
    }))
})
