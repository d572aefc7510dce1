/**
 * Issue 29 item 8: `ServerTeams.list(options)` offers what the service's team list reads. Its
 * query schema (`apps/backend/src/app/api/latest/teams/crud.tsx` at 2f719903) has `user_id`
 * (`userIdOrMeSchema`: a uuid or `me`) and `add_current_user` (shown for Create only, deprecated:
 * `onList` never reads it); `onList` filters by membership when `user_id` is given and orders by
 * creation, oldest first, without paging.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import { setup, within } from "./support.js"

describe("ServerTeams.list options", () => {
  it.effect("userId: only that user's teams, oldest first; without it every team", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada.teams-list@example.com")
      const bob = yield* signUp("bob.teams-list@example.com")
      const outcome = yield* Effect.gen(function* () {
        const first = yield* ServerTeams.create({ displayName: "First", creatorUserId: ada.userId })
        const second = yield* ServerTeams.create({ displayName: "Second", creatorUserId: bob.userId })
        const third = yield* ServerTeams.create({ displayName: "Third", creatorUserId: ada.userId })
        const adas = yield* ServerTeams.list({ userId: ada.userId })
        const all = yield* ServerTeams.list()
        return { ids: [first.id, second.id, third.id], adas, all }
      }).pipe(within(server))
      expect(outcome.adas.map((team) => team.id)).toEqual([outcome.ids[0], outcome.ids[2]])
      const created = outcome.all.map((team) => team.id).filter((id) => outcome.ids.includes(id))
      expect(created).toEqual(outcome.ids)
    }))

  it.effect("a userId that is neither a uuid nor 'me' is InvalidArgument, nothing sent; 'me' without a user in the request is CannotGetOwnUserWithoutUser", () =>
    Effect.gen(function* () {
      const { server, requests } = yield* setup()
      const before = requests("GET /teams")
      const malformed = yield* Effect.flip(ServerTeams.list({ userId: "ada" })).pipe(within(server))
      const sent = requests("GET /teams") - before
      const me = yield* Effect.flip(ServerTeams.list({ userId: "me" })).pipe(within(server))
      expect(malformed._tag).toBe("InvalidArgument")
      expect(sent).toBe(0)
      expect(requests("GET /teams") - before).toBe(1)
      expect(me._tag).toBe("CannotGetOwnUserWithoutUser")
    }))
})
