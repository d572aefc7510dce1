/**
 * Conformance of the team routes with the recorded wire samples (teams/01–28) and of the team
 * API key routes (api-keys/11–14): the recorded run is replayed in its order against an emulator
 * seeded with the samples' project (client team creation, team and user API keys on; teams/01
 * against one with client team creation off). The recorded users are signed up (the owner with
 * the recorded display name and client metadata), and every recorded id, code and key value is
 * replaced with the live one as it appears. Checked with `compare` (conformanceSupport.ts):
 * status, known-error header, content type, JSON shape, plain-text bodies verbatim.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Answer } from "./helpers.js"
import { clientHeaders, send } from "./helpers.js"
import type { SampleBench, Substitutions, Tokens } from "./conformanceSupport.js"
import { compare, load, makeSampleBench, passwordSession, sampleInstant, samplePassword, tokenSubstitutions } from "./conformanceSupport.js"

const response = <T>(name: string) => load(name).response.body as T
const request = <T>(name: string) => load(name).request.body as T

const teamId = response<{ id: string }>("teams/02-create-client").id
const serverTeamId = response<{ id: string }>("teams/03-create-server").id
const memberId = request<{ creator_user_id: string }>("teams/03-create-server").creator_user_id
const owner = response<{ items: ReadonlyArray<{ user_id: string; display_name: string }> }>("teams/10-member-profiles-list-client").items[0]!
const ownerUser = response<{ items: ReadonlyArray<{ user: { primary_email: string; client_metadata: unknown } }> }>(
  "teams/13-member-profiles-list-server"
).items[0]!.user
const memberEmail = response<{ items: ReadonlyArray<{ user: { primary_email: string } }> }>("teams/13-member-profiles-list-server").items[1]!.user
  .primary_email
const invitations = response<{ items: ReadonlyArray<{ id: string; recipient_email: string }> }>("teams/17-invitations-list").items
const inviteeEmail = invitations[0]!.recipient_email
const invitationCode = request<{ code: string }>("teams/20-invitation-accept-check-code").code
const teamKey = response<{ id: string; value: string }>("api-keys/11-team-key-create")

const conforms = (name: string, answer: Answer) => expect(compare(load(name).response, answer), name).toEqual([])

/** Signs a user up (client access) and returns the tokens. */
const signUp = (bench: SampleBench, email: string): Effect.Effect<Tokens> =>
  passwordSession(bench.emulator, bench.project, "sign-up", { email, password: samplePassword })

describe("teams/* conformance", () => {
  it.effect("teams/01: client team creation while the switch is off answers the 403 text", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(sampleInstant)
      const bench = yield* makeSampleBench()
      const tokens = yield* signUp(bench, ownerUser.primary_email)
      const answer = yield* bench.replay("teams/01-create-client-disabled", tokenSubstitutions(tokens))
      conforms("teams/01-create-client-disabled", answer)
    }))

  it.effect("teams/02–28 and api-keys/11–14, replayed in the recorded order", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(sampleInstant)
      const bench = yield* makeSampleBench({ clientTeamCreationEnabled: true, allowTeamApiKeys: true, allowUserApiKeys: true })
      const ownerTokens = yield* signUp(bench, ownerUser.primary_email)
      const memberTokens = yield* signUp(bench, memberEmail)
      const profile = yield* send(bench.emulator, {
        method: "PATCH",
        path: "/api/v1/users/me",
        headers: clientHeaders(bench.project, { "x-stack-access-token": ownerTokens.access_token }),
        body: { display_name: owner.display_name, client_metadata: ownerUser.client_metadata }
      })
      expect(profile.status).toBe(200)

      let ids: Substitutions = { [owner.user_id]: ownerTokens.user_id, [memberId]: memberTokens.user_id }
      const asOwner = () => ({ ...ids, ...tokenSubstitutions(ownerTokens) })
      const play = (name: string, substitutions: Substitutions = asOwner()) =>
        Effect.tap(bench.replay(name, substitutions), (answer) => Effect.sync(() => conforms(name, answer)))

      const created = yield* play("teams/02-create-client")
      ids = { ...ids, [teamId]: created.json.id }
      const serverCreated = yield* play("teams/03-create-server")
      ids = { ...ids, [serverTeamId]: serverCreated.json.id }
      expect((yield* play("teams/04-list-me")).json.items.length).toBe(1)
      for (const name of ["teams/05-get-client", "teams/06-update-client", "teams/07-get-server"]) yield* play(name)
      for (const name of ["teams/08-membership-add", "teams/09-membership-add-duplicate", "teams/10-member-profiles-list-client"]) yield* play(name)
      for (const name of ["teams/11-member-profile-get-me", "teams/12-member-profile-patch-me", "teams/13-member-profiles-list-server"]) yield* play(name)
      yield* play("teams/14-membership-remove")
      yield* play("teams/15-membership-remove-not-member")

      const sent = yield* play("teams/16-invitation-send-code")
      const code = bench.emulator.latestEmail({ email: inviteeEmail, kind: "team_invitation" })!.code!
      const second = yield* play("teams/16-invitation-send-code", { ...asOwner(), [inviteeEmail]: invitations[1]!.recipient_email })
      ids = { ...ids, [invitations[0]!.id]: sent.json.id, [invitations[1]!.id]: second.json.id, [invitationCode]: code }
      const listed = yield* play("teams/17-invitations-list")
      expect(listed.json.items.map((item: { id: string }) => item.id)).toEqual([sent.json.id, second.json.id])
      yield* play("teams/18-invitation-delete")
      yield* play("teams/19-invitation-accept-details-bad-code")

      const inviteeTokens = yield* signUp(bench, inviteeEmail)
      const asInvitee = () => ({ ...ids, ...tokenSubstitutions(inviteeTokens) })
      for (const name of ["teams/20-invitation-accept-check-code", "teams/21-invitation-accept-details", "teams/22-invitation-accept"]) {
        yield* play(name, asInvitee())
      }
      const after = yield* play("teams/23-list-me-after-accept", asInvitee())
      expect(after.json.items.map((item: { id: string }) => item.id)).toEqual([created.json.id])
      yield* play("teams/24-invitation-accept-code-reused", asInvitee())
      yield* play("teams/25-get-not-found")
      const notMember = yield* play("teams/26-get-client-not-member")
      expect(notMember.json.error).toBe(`User ${ownerTokens.user_id} is not found in team ${serverCreated.json.id}.`)

      const key = yield* play("api-keys/11-team-key-create")
      ids = { ...ids, [teamKey.id]: key.json.id, [teamKey.value]: key.json.value }
      const keys = yield* play("api-keys/12-team-keys-list")
      expect(keys.json.items[0].value.last_four).toBe(key.json.value.slice(-4))
      yield* play("api-keys/13-team-key-check")
      const wrongType = yield* play("api-keys/14-team-key-checked-as-user-key")
      expect(wrongType.json.error).toBe(response<{ error: string }>("api-keys/14-team-key-checked-as-user-key").error)

      yield* play("teams/27-delete-server")
      yield* play("teams/28-delete-client")
      const gone = yield* bench.replay("teams/05-get-client", asOwner())
      expect(gone.headers.get("x-stack-known-error")).toBe("TEAM_MEMBERSHIP_NOT_FOUND")
    }))
})
