/**
 * End to end over real HTTP against the emulator server: paginated team permission definitions
 * (`PermissionDefinitions.listTeamDefinitionsPaginated`, the official
 * `listTeamPermissionDefinitionsPaginated`): every definition once over the pages, one request per
 * page, and a filtered page.
 */
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Access from "../../src/core/Access.js"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import * as Stack from "../../src/Stack.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

/** An admin tool over fetch (client layer plus the admin key), counting its requests. */
const admin = () => {
  const fetch = countingFetch()
  const demo = main.server.emulator.demo
  const client = Stack.layerClient({
    projectId: demo.projectId,
    publishableClientKey: demo.publishableClientKey,
    baseUrl: main.server.baseUrl,
    httpClient: fetch.layer
  })
  return { client, adminKey: Access.layerAdminKey(demo.superSecretAdminKey), count: fetch.count }
}

describe("paginated team permission definitions over HTTP", () => {
  it("walks every team definition in pages of 3, one request per page; query filters before paging", async () => {
    const { client, count, adminKey } = admin()
    const program = Effect.gen(function* () {
      yield* PermissionDefinitions.createTeamDefinition({ id: "e2e_reader", description: "Reads reports" })
      const seen: Array<string> = []
      let cursor = Option.none<string>()
      do {
        const page = yield* PermissionDefinitions.listTeamDefinitionsPaginated({
          limit: 3,
          ...Option.match(cursor, { onNone: () => ({}), onSome: (c) => ({ cursor: c }) })
        })
        seen.push(...page.items.map((definition) => definition.id))
        cursor = page.nextCursor
      } while (Option.isSome(cursor))
      const all = yield* PermissionDefinitions.listTeamDefinitions()
      const filtered = yield* PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 10, query: "REPORTS" })
      return { seen, all: all.map((definition) => definition.id), filtered }
    })
    const result = await Effect.runPromise(program.pipe(Effect.provide(adminKey), Effect.provide(client), Effect.orDie))
    expect(result.seen).toEqual(result.all)
    expect(result.seen).toContain("e2e_reader")
    expect(count("GET /team-permission-definitions")).toBe(Math.ceil(result.all.length / 3) + 2)
    expect(result.filtered.items.map((definition) => definition.id)).toEqual(["e2e_reader"])
    expect(result.filtered.nextCursor).toEqual(Option.none())
  })
})
