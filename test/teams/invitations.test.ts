/**
 * Team invitations through the SDK against the in-process emulator: send (default callback URL =
 * the team-invitation handler page) → the code from the outbox → check → details → accept in the
 * invitee's session (member default permissions) → used; list and revoke with their permission
 * checks; restricted users; expiry after 7 days; deleting the team voids its invitations.
 */
import { describe, expect, it } from "@effect/vitest"
import { Clock, Effect } from "effect"
import * as TestClock from "effect/testing/TestClock"
import * as QueryCache from "../../src/cache/QueryCache.js"
import * as Permissions from "../../src/emulator/Permissions.js"
import { Anonymous, ServerTeams, ServerUsers, TeamInvitations, Teams } from "../../src/index.js"
import { clientHeaders, send, signUp } from "../emulator/helpers.js"
import { appUrl, setup, within } from "./support.js"

const day = 86_400_000

describe("TeamInvitations", () => {
  it.effect("send → outbox link on the handler page → check → details → accept → member; the code is then used", () =>
    Effect.gen(function* () {
      const { signUp, emulator, project } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))

      const id = yield* within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "bob@example.com" }))
      const mail = emulator.latestEmail({ email: "bob@example.com", kind: "team_invitation" })!
      expect(mail.subject).toContain("Ada's Team")
      expect(mail.link).toBe(`${appUrl}/handler/team-invitation?code=${mail.code}`)
      const code = mail.code!

      const pending = yield* within(ada.client)(TeamInvitations.list(team.id))
      expect(pending.map((i) => [i.id, i.recipientEmail, i.teamDisplayName])).toEqual([[id, "bob@example.com", "Ada's Team"]])
      const now = yield* Clock.currentTimeMillis
      expect(pending[0]!.expiresAt.getTime()).toBe(now + 7 * day)

      yield* within(bob.client)(TeamInvitations.checkCode(code))
      expect(yield* within(bob.client)(TeamInvitations.details(code))).toEqual({ teamId: team.id, teamDisplayName: "Ada's Team" })
      yield* within(bob.client)(TeamInvitations.accept(code))
      expect((yield* within(bob.client)(Teams.listMine())).map((t) => t.id)).toEqual([team.id])
      const state = emulator.state.projects.get(project.projectId)!
      expect([...Permissions.teamPermissions(state, team.id, bob.userId, false)]).toEqual(["team_member"])

      const reused = yield* Effect.flip(within(bob.client)(TeamInvitations.accept(code)))
      expect(reused._tag).toBe("VerificationCodeAlreadyUsed")
      // Ada's cached list is another session's: she refreshes it to see the invitation gone
      yield* within(ada.client)(QueryCache.invalidate(TeamInvitations.listKey(team.id)))
      expect(yield* within(ada.client)(TeamInvitations.list(team.id))).toEqual([])
      const unknown = yield* Effect.flip(within(bob.client)(TeamInvitations.details("j7evytqr28k4e9mbcqmxphcsgz8d718789k1shn5f135z")))
      expect(unknown._tag).toBe("VerificationCodeNotFound")
    }))

  it.effect("accepting as a member already changes nothing but uses the code", () =>
    Effect.gen(function* () {
      const { signUp, emulator } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      yield* within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "ada@example.com" }))
      const code = emulator.latestEmail({ email: "ada@example.com", kind: "team_invitation" })!.code!
      yield* within(ada.client)(TeamInvitations.accept(code))
      expect((yield* within(ada.client)(Teams.listMine())).length).toBe(1)
      expect((yield* Effect.flip(within(ada.client)(TeamInvitations.checkCode(code))))._tag).toBe("VerificationCodeAlreadyUsed")
    }))

  it.effect("revoke: the code stops working; listing and revoking need the permissions", () =>
    Effect.gen(function* () {
      const { signUp, emulator, server } = yield* setup({ clientTeamCreationEnabled: true, teamMemberDefaultPermissions: [] })
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))

      const id = yield* within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "carol@example.com" }))
      const code = emulator.latestEmail({ email: "carol@example.com" })!.code!
      expect((yield* Effect.flip(within(bob.client)(TeamInvitations.list(team.id))))._tag).toBe("TeamPermissionRequired")
      expect((yield* Effect.flip(within(bob.client)(TeamInvitations.revoke(team.id, id))))._tag).toBe("TeamPermissionRequired")
      const send = yield* Effect.flip(within(bob.client)(TeamInvitations.send({ teamId: team.id, email: "dan@example.com" })))
      expect(send._tag).toBe("TeamPermissionRequired")

      yield* within(ada.client)(TeamInvitations.revoke(team.id, id))
      expect(yield* within(ada.client)(TeamInvitations.list(team.id))).toEqual([])
      expect((yield* Effect.flip(within(bob.client)(TeamInvitations.checkCode(code))))._tag).toBe("VerificationCodeNotFound")
    }))

  it.effect("an untrusted callback URL is refused; an anonymous invitee cannot accept", () =>
    Effect.gen(function* () {
      const { signUp, emulator, project } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const untrusted = yield* Effect.flip(
        within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "x@example.com", callbackUrl: "https://evil.example.org/join" }))
      )
      expect(untrusted._tag).toBe("RedirectUrlNotWhitelisted")

      yield* within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "anon@example.com" }))
      const code = emulator.latestEmail({ email: "anon@example.com" })!.code!
      const anonymous = yield* signUp("placeholder@example.com")
      yield* within(anonymous.client)(Anonymous.signUp())
      const error = yield* Effect.flip(within(anonymous.client)(TeamInvitations.accept(code)))
      expect(error._tag).toBe("TeamInvitationRestrictedUserNotAllowed")
      expect(project.projectId).toBeDefined()
    }))

  it.effect("codes expire after 7 days; deleting the team voids its invitations", () =>
    Effect.gen(function* () {
      const { signUp, emulator } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      yield* within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "bob@example.com" }))
      const old = emulator.latestEmail({ email: "bob@example.com" })!.code!
      yield* TestClock.adjust(7 * day + 1)
      expect((yield* Effect.flip(within(bob.client)(TeamInvitations.accept(old))))._tag).toBe("VerificationCodeExpired")

      yield* within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "bob@example.com" }))
      const fresh = emulator.latestEmail({ email: "bob@example.com" })!.code!
      yield* within(ada.client)(Teams.delete(team.id))
      expect((yield* Effect.flip(within(bob.client)(TeamInvitations.accept(fresh))))._tag).toBe("VerificationCodeNotFound")
    }))

  it.effect("listMine shows invitations to the user's verified e-mails; acceptById joins; an unverified e-mail sees none", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      const id = yield* within(ada.client)(TeamInvitations.send({ teamId: team.id, email: "bob@example.com" }))
      expect(yield* within(bob.client)(TeamInvitations.listMine())).toEqual([])
      const unverified = yield* Effect.flip(within(bob.client)(TeamInvitations.acceptById(id)))
      expect(unverified._tag).toBe("VerificationCodeNotFound")

      yield* within(server)(ServerUsers.update(bob.userId, { primaryEmailVerified: true }))
      yield* within(bob.client)(QueryCache.invalidate(TeamInvitations.mineKey))
      const mine = yield* within(bob.client)(TeamInvitations.listMine())
      expect(mine.map((i) => [i.id, i.teamId, i.teamDisplayName])).toEqual([[id, team.id, "Ada's Team"]])
      yield* within(bob.client)(TeamInvitations.acceptById(id))
      expect((yield* within(bob.client)(Teams.listMine())).map((t) => t.id)).toEqual([team.id])
      expect(yield* within(bob.client)(TeamInvitations.listMine())).toEqual([])
      expect((yield* Effect.flip(within(bob.client)(TeamInvitations.acceptById(id))))._tag).toBe("VerificationCodeNotFound")
    }))

  it.effect("the service's 400 texts: both or neither list filter, revoke without team_id, client profiles without team_id", () =>
    Effect.gen(function* () {
      const { emulator, project } = yield* setup()
      const tokens = yield* signUp(emulator, project, "ada@example.com")
      const headers = clientHeaders(project, { "x-stack-access-token": tokens.access_token })
      const teamId = "39d6e7c8-7f54-482e-92f5-79bb7706ba55"
      const both = yield* send(emulator, { path: `/api/v1/team-invitations?team_id=${teamId}&user_id=me`, headers })
      expect([both.status, both.text]).toEqual([400, "Cannot specify both team_id and user_id"])
      const neither = yield* send(emulator, { path: "/api/v1/team-invitations", headers })
      expect([neither.status, neither.text]).toEqual([400, "Must specify either team_id or user_id"])
      const revoke = yield* send(emulator, { method: "DELETE", path: `/api/v1/team-invitations/${teamId}`, headers })
      expect([revoke.status, revoke.text]).toEqual([400, "team_id is required for deleting a team invitation"])
      const profiles = yield* send(emulator, { path: "/api/v1/team-member-profiles", headers })
      expect([profiles.status, profiles.text]).toEqual([400, "team_id is required for access type client"])
    }))
})
