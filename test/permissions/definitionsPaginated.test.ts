/**
 * Paginated team permission definitions (issue 15, official `listTeamPermissionDefinitionsPaginated`):
 * `PermissionDefinitions.listTeamDefinitionsPaginated({ limit, cursor, query })` against the
 * in-process emulator, which answers as the backend's `permission-definitions-pagination.ts`
 * (stack-auth/stack-auth c3f89510): pages by id, the last id as cursor, a text filter on ids and
 * descriptions, `cursor` only with `limit`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as PermissionDefinitions from "../../src/permissions/PermissionDefinitions.js"
import { send } from "../emulator/helpers.js"
import { ids, makeApp, seededTeamPermissionIds } from "./support.js"
import { right } from "../support/results.js"

const allIds = seededTeamPermissionIds

describe("paginated team permission definitions", () => {
  it.live("pages by id: each page holds limit definitions, nextCursor is the last id, none on the last page", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const seen: Array<string> = []
      let cursor: string | undefined
      let pages = 0
      do {
        const page = right(yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 3, ...(cursor === undefined ? {} : { cursor }) })))
        expect(page.items.length).toBeLessThanOrEqual(3)
        seen.push(...ids(page.items))
        cursor = Option.getOrUndefined(page.nextCursor)
        if (cursor !== undefined) expect(cursor).toBe(page.items.at(-1)?.id)
        pages++
      } while (cursor !== undefined)
      expect(seen).toEqual(allIds)
      expect(pages).toBe(3)
      expect(app.sent).toEqual([
        "GET /team-permission-definitions?limit=3",
        "GET /team-permission-definitions?limit=3&cursor=%24manage_api_keys",
        "GET /team-permission-definitions?limit=3&cursor=%24update_team"
      ])
    }))

  it.live("a page that ends exactly at the last definition has no next cursor", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const page = right(yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 8 })))
      expect(ids(page.items)).toEqual(allIds)
      expect(page.nextCursor).toEqual(Option.none())
    }))

  it.live("query keeps ids or descriptions containing the text, case-insensitive, and pages the result", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "billing", description: "Manage MEMBERS' invoices" })))
      const first = right(yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 2, query: " Members " })))
      expect(ids(first.items)).toEqual(["$invite_members", "$read_members"])
      const second = right(
        yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 2, query: "members", cursor: Option.getOrThrow(first.nextCursor) }))
      )
      // "billing" and "team_member" match by their descriptions
      expect(ids(second.items)).toEqual(["$remove_members", "billing"])
      const third = right(
        yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 2, query: "members", cursor: Option.getOrThrow(second.nextCursor) }))
      )
      expect(ids(third.items)).toEqual(["team_member"])
      expect(third.nextCursor).toEqual(Option.none())
    }))

  it.live("a cursor whose definition was deleted meanwhile starts after the first id greater than it", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      right(yield* app.run(PermissionDefinitions.createTeamDefinition({ id: "editor" })))
      const first = right(yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 7 })))
      expect(first.nextCursor).toEqual(Option.some("editor"))
      right(yield* app.run(PermissionDefinitions.deleteTeamDefinition("editor")))
      const next = right(yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit: 7, cursor: "editor" })))
      expect(ids(next.items)).toEqual(["team_admin", "team_member"])
    }))

  it.live("a limit that is not an integer from 1 to 200 is InvalidArgument before any request", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      for (const limit of [0, 201, 2.5, Number.NaN]) {
        const result = yield* app.run(PermissionDefinitions.listTeamDefinitionsPaginated({ limit }))
        expect(result._tag === "Failure" && result.failure._tag).toBe("InvalidArgument")
      }
      expect(app.sent).toEqual([])
    }))

  it.live("the emulator answers cursor without limit with the service's 400 text and a limit above 200 with SCHEMA_ERROR", () =>
    Effect.gen(function* () {
      const app = yield* makeApp
      const headers = {
        "x-stack-project-id": app.emulator.demo.projectId,
        "x-stack-access-type": "admin",
        "x-stack-super-secret-admin-key": app.emulator.demo.superSecretAdminKey
      }
      const noLimit = yield* send(app.emulator, { method: "GET", path: "/api/v1/team-permission-definitions?cursor=team_admin", headers })
      expect([noLimit.status, noLimit.text]).toEqual([400, "`cursor` requires `limit` to also be set."])
      const tooMany = yield* send(app.emulator, { method: "GET", path: "/api/v1/team-permission-definitions?limit=201", headers })
      expect([tooMany.status, tooMany.json?.code]).toEqual([400, "SCHEMA_ERROR"])
      const unpaged = yield* send(app.emulator, { method: "GET", path: "/api/v1/team-permission-definitions?query=TEAM_", headers })
      expect(unpaged.json).toMatchObject({ is_paginated: false, items: [{ id: "team_admin" }, { id: "team_member" }] })
    }))
})
