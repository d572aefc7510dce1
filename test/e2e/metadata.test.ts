/**
 * End to end over real HTTP against the emulator server: schema-typed metadata (`Metadata.make`).
 * A browser writes typed client metadata (encoded by the schema, one PATCH), the server reads
 * the user and its team decoded; a value that does not match is a `MetadataDecodeError` naming
 * the user and the field; an update that does not encode sends nothing.
 */
import { Effect, Layer, Option, Schema } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import * as Metadata from "../../src/users/Metadata.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientTeamCreationEnabled: true } } })

const AppMetadata = Metadata.make({
  user: {
    client: Metadata.withDefault(
      Schema.Struct({ theme: Schema.Literals(["dark", "light"]), since: Schema.DateFromString }),
      () => ({ theme: "light" as const, since: new Date(0) })
    ),
    clientReadOnly: Schema.NullOr(Schema.Struct({ plan: Schema.Literals(["free", "pro"]) }))
  },
  team: { server: Schema.NullOr(Schema.Struct({ seats: Schema.NumberFromString.check(Schema.isInt()) })) }
})

const credentials = main.credentials

const run = <A, E, R>(effect: Effect.Effect<A, E, R>, layer: Layer.Layer<R, unknown>) =>
  Effect.runPromise(effect.pipe(Effect.provide(layer)) as Effect.Effect<A, unknown>)

const uniqueEmail = (label: string) => `e2e-metadata-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

describe("schema-typed metadata over HTTP", () => {
  it("a browser's typed update is encoded on the wire; server reads of the user and its team are decoded", async () => {
    const email = uniqueEmail("typed")
    const browser = countingFetch()
    const clientLayer = Stack.layerClient({ ...credentials(), httpClient: browser.layer })
    const server = countingFetch()
    const serverLayer = Stack.layerServer({ ...credentials(), secretServerKey: main.server.emulator.demo.secretServerKey, httpClient: server.layer })
    const since = new Date("2026-03-04T05:06:07.000Z")

    const { user, team } = await run(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
        const fresh = Option.getOrThrow(yield* AppMetadata.Users.getCurrent())
        expect(fresh.clientMetadata).toEqual({ theme: "light", since: new Date(0) })
        const user = yield* AppMetadata.Users.updateCurrent({ clientMetadata: { theme: "dark", since } })
        const team = yield* AppMetadata.Teams.create({ displayName: "Typed team" })
        yield* Users.updateCurrent({ selectedTeamId: team.id })
        return { user, team }
      }),
      clientLayer
    )
    expect(user.clientMetadata).toEqual({ theme: "dark", since })
    expect(browser.count("PATCH /users/me")).toBe(2)

    const stored = await run(ServerUsers.getById(user.id), serverLayer)
    expect(stored.clientMetadata).toEqual({ theme: "dark", since: "2026-03-04T05:06:07.000Z" })

    const seated = await run(AppMetadata.ServerTeams.update(team.id, { serverMetadata: { seats: 3 } }), serverLayer)
    expect(seated.serverMetadata).toEqual({ seats: 3 })
    expect((await run(ServerTeams.get(team.id), serverLayer)).serverMetadata).toEqual({ seats: "3" })

    const read = await run(AppMetadata.ServerUsers.getById(user.id), serverLayer)
    expect(read.clientMetadata.since).toEqual(since)
    expect(read.clientMetadata.theme).toBe("dark")
    expect(read.selectedTeam?.serverMetadata).toEqual({ seats: 3 })
    expect(server.count(`GET /users/${user.id}`)).toBe(2)
  })

  it("a stored value that does not match fails with MetadataDecodeError; an update that does not encode sends nothing", async () => {
    const email = uniqueEmail("invalid")
    const serverLayer = Stack.layerServer({ ...credentials(), secretServerKey: main.server.emulator.demo.secretServerKey })
    const browser = countingFetch()
    const clientLayer = Stack.layerClient({ ...credentials(), httpClient: browser.layer })
    const created = await run(
      ServerUsers.create({ primaryEmail: email, primaryEmailAuthEnabled: true, password: "correct horse battery", clientReadOnlyMetadata: { plan: "gold" } }),
      serverLayer
    )

    const error = await run(AppMetadata.ServerUsers.getById(created.id).pipe(Effect.flip), serverLayer)
    expect(error).toMatchObject({ _tag: "MetadataDecodeError", owner: "user", id: created.id, field: "clientReadOnlyMetadata" })

    const outcome = await run(
      Effect.gen(function* () {
        yield* Password.signInWithPassword({ email, password: "correct horse battery" })
        const read = yield* Effect.flip(AppMetadata.Users.getCurrent())
        const invalid = yield* Effect.flip(AppMetadata.Users.updateCurrent({ clientMetadata: { theme: "dark", since: new Date(Number.NaN) } }))
        return { read, invalid }
      }),
      clientLayer
    )
    expect(outcome.read).toMatchObject({ _tag: "MetadataDecodeError", field: "clientReadOnlyMetadata" })
    expect(outcome.invalid).toMatchObject({ _tag: "InvalidArgument", argument: "clientMetadata" })
    // one GET /users/me for the read, no PATCH for the update that did not encode
    expect(browser.count("GET /users/me")).toBe(1)
    expect(browser.count("PATCH /users/me")).toBe(0)
  })
})
