/**
 * Team invitations with server access (the official `serverTeam.inviteUser` / `listInvitations`
 * and `serverUser.listTeamInvitations`), against the in-process emulator: a server invites to a
 * team it is not a member of, lists and revokes the team's invitations, and lists the invitations
 * addressed to a user (by its verified e-mail); an unknown team is `TeamNotFound`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ServerTeamInvitations, ServerUsers, TeamInvitations, Teams } from "../../src/index.js"
import { appUrl, setup, within } from "./support.js"

const callbackUrl = `${appUrl}/handler/team-invitation`

describe("ServerTeamInvitations", () => {
  it.effect("send → list (team) → listMine (user, verified e-mail) → revoke → the lists are empty", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const run = within(server)

      const id = yield* run(ServerTeamInvitations.send({ teamId: team.id, email: "bob@example.com", callbackUrl }))
      const listed = yield* run(ServerTeamInvitations.list(team.id))
      expect(listed.map((invitation) => [invitation.id, invitation.recipientEmail, invitation.teamDisplayName])).toEqual([[
        id,
        "bob@example.com",
        "Ada's Team"
      ]])
      // the member's own view lists the same invitation
      expect((yield* within(ada.client)(TeamInvitations.list(team.id))).map((invitation) => invitation.id)).toEqual([id])

      expect(yield* run(ServerTeamInvitations.listMine(bob.userId))).toEqual([])
      yield* run(ServerUsers.update(bob.userId, { primaryEmailVerified: true }))
      expect((yield* run(ServerTeamInvitations.listMine(bob.userId))).map((invitation) => invitation.id)).toEqual([id])

      yield* run(ServerTeamInvitations.revoke(team.id, id))
      expect(yield* run(ServerTeamInvitations.list(team.id))).toEqual([])
      expect(yield* run(ServerTeamInvitations.listMine(bob.userId))).toEqual([])
    }))

  it.effect("an unknown team is TeamNotFound for send and list", () =>
    Effect.gen(function* () {
      const { server } = yield* setup()
      const teamId = "39d6e7c8-7f54-482e-92f5-79bb7706ba55"
      const sent = yield* Effect.flip(within(server)(ServerTeamInvitations.send({ teamId, email: "x@example.com", callbackUrl })))
      expect(sent._tag).toBe("TeamNotFound")
      const listed = yield* Effect.flip(within(server)(ServerTeamInvitations.list(teamId)))
      expect(listed._tag).toBe("TeamNotFound")
    }))
})
