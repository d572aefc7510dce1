/**
 * Conformance of the permission routes with the recorded wire samples (permissions/01–19): the
 * samples form one story (definitions, a grant, recursive and direct lists, revokes, project
 * scope), replayed in order against one emulator seeded with the samples' project, a signed-up
 * user standing for the recorded user, and the recorded team (id kept) created through the
 * emulator state with that user as its creator (the creator's default `team_admin` granted), as
 * team routes would. Compared (conformanceSupport.ts): status, `x-stack-known-error`, content
 * type, the body's shape; and where the service's answer is fully determined, the values.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { grantTeamDefaults } from "../../src/emulator/Permissions.js"
import { teamsOf } from "../../src/emulator/State.js"
import type { Answer } from "./helpers.js"
import type { Substitutions } from "./conformanceSupport.js"
import { compare, load, makeSampleBench, passwordSession, projectId, sampleInstant, samplePassword, tokenSubstitutions } from "./conformanceSupport.js"

const recordedTeamId = "39d6e7c8-7f54-482e-92f5-79bb7706ba55"
const recordedUserId = (load("permissions/06-team-permission-grant").response.body as { user_id: string }).user_id

/**
 * The recorded response, where the team definitions list (03) drops the definitions earlier
 * capture runs left behind (`child_*`, `perm_*`): shapes are compared item by item.
 */
const recordedResponse = (name: string) => {
  const response = load(name).response
  if (name !== "permissions/03-team-definitions-list") return response
  const body = response.body as { items: Array<{ id: string }>; is_paginated: boolean }
  return { ...response, body: { ...body, items: body.items.filter((item) => !/^(child|perm)_/.test(item.id)) } }
}

const conforms = (name: string, answer: Answer) => expect(compare(recordedResponse(name), answer), name).toEqual([])

/** The recorded body with the recorded user id replaced by the live one. */
const recordedBody = (name: string, userId: string): unknown => JSON.parse(JSON.stringify(load(name).response.body).split(recordedUserId).join(userId))

const setup = Effect.gen(function* () {
  yield* TestClock.setTime(sampleInstant)
  const bench = yield* makeSampleBench()
  const tokens = yield* passwordSession(bench.emulator, bench.project, "sign-up", { email: "perms@example.com", password: samplePassword })
  const project = bench.emulator.state.projects.get(projectId)!
  teamsOf(project).set(recordedTeamId, {
    id: recordedTeamId,
    displayName: "Wire team",
    createdAtMillis: sampleInstant,
    memberUserIds: new Set([tokens.user_id])
  })
  grantTeamDefaults(project, recordedTeamId, tokens.user_id, "creator")
  const substitutions: Substitutions = { ...tokenSubstitutions(tokens), [recordedUserId]: tokens.user_id }
  return { replay: (name: string) => bench.replay(name, substitutions), userId: tokens.user_id }
})

const story = [
  "permissions/01-team-definition-create",
  "permissions/02-team-definition-create-duplicate",
  "permissions/03-team-definitions-list",
  "permissions/04-team-definition-update",
  "permissions/05-team-definitions-list-as-server",
  "permissions/06-team-permission-grant",
  "permissions/07-team-permission-grant-unknown",
  "permissions/08-team-permissions-list-me-recursive",
  "permissions/09-team-permissions-list-me-direct",
  "permissions/10-team-permission-revoke",
  "permissions/11-team-permission-revoke-again",
  "permissions/12-team-definition-delete",
  "permissions/13-project-definition-create",
  "permissions/14-project-definitions-list",
  "permissions/15-project-permission-grant",
  "permissions/16-project-permissions-list-me",
  "permissions/17-project-permission-revoke",
  "permissions/18-project-definition-delete",
  "permissions/19-team-permissions-list-other-user-client"
]

describe("permissions/* conformance", () => {
  it.effect("the recorded story 01–19 replays with the recorded statuses, headers and shapes", () =>
    Effect.gen(function* () {
      const { replay, userId } = yield* setup
      const answers = new Map<string, Answer>()
      for (const name of story) {
        const answer = yield* replay(name)
        conforms(name, answer)
        answers.set(name, answer)
      }

      // values the service fully determines
      for (
        const name of [
          "permissions/01-team-definition-create",
          "permissions/02-team-definition-create-duplicate",
          "permissions/04-team-definition-update",
          "permissions/05-team-definitions-list-as-server",
          "permissions/06-team-permission-grant",
          "permissions/07-team-permission-grant-unknown",
          "permissions/08-team-permissions-list-me-recursive",
          "permissions/09-team-permissions-list-me-direct",
          "permissions/11-team-permission-revoke-again",
          "permissions/13-project-definition-create",
          "permissions/14-project-definitions-list",
          "permissions/15-project-permission-grant",
          "permissions/16-project-permissions-list-me"
        ]
      ) {
        expect(answers.get(name)!.json, name).toEqual(recordedBody(name, userId))
      }
      expect(answers.get("permissions/19-team-permissions-list-other-user-client")!.text).toBe(
        load("permissions/19-team-permissions-list-other-user-client").response.body
      )

      // system permissions, the seeded team_admin / team_member and 01's definition, sorted by id
      expect(answers.get("permissions/03-team-definitions-list")!.json).toEqual(recordedResponse("permissions/03-team-definitions-list").body)
    }))

  it.effect("after the definition is deleted (12) the grant is gone from every list", () =>
    Effect.gen(function* () {
      const { replay } = yield* setup
      for (const name of story.slice(0, 6)) yield* replay(name)
      yield* replay("permissions/12-team-definition-delete")
      const direct = yield* replay("permissions/09-team-permissions-list-me-direct")
      expect(direct.json.items.map((item: { id: string }) => item.id)).toEqual(["team_admin"])
      const again = yield* replay("permissions/12-team-definition-delete")
      expect([again.status, again.headers.get("x-stack-known-error")]).toEqual([404, "PERMISSION_NOT_FOUND"])
    }))
})
