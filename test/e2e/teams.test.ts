/**
 * End to end over real HTTP against the emulator server: a user creates, lists, reads, updates,
 * selects and deletes teams; member profiles; an invitation goes out by e-mail, and the invitee
 * checks the code, reads the details and accepts it in its own session, then leaves; the server
 * creates, updates, lists and deletes teams, adds and removes members, and lists users by
 * `team_id`. Cached reads are counted: a second `listMine` within the cache lifetime sends nothing.
 */
import { Context, Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import * as Stack from "../../src/Stack.js"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import * as TeamInvitations from "../../src/teams/TeamInvitations.js"
import * as TeamMemberProfiles from "../../src/teams/TeamMemberProfiles.js"
import * as Teams from "../../src/teams/Teams.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientTeamCreationEnabled: true } } })

const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

const options = () => ({
  projectId: main.server.emulator.demo.projectId,
  publishableClientKey: main.server.emulator.demo.publishableClientKey,
  baseUrl: main.server.baseUrl
})

/** A signed-in "browser" (its own client layer, handler pages on localhost:3000) and its request counter. */
const browser = (label: string) =>
  Effect.gen(function* () {
    const fetch = countingFetch()
    const context = yield* Layer.build(
      Layer.merge(Stack.layerClient({ ...options(), httpClient: fetch.layer }), HandlerUrls.layer({ appUrl: "http://localhost:3000" }))
    )
    const email = uniqueEmail(label)
    const { userId } = yield* Password.signUpWithPassword({ email, password: "correct horse battery" }).pipe(Effect.provide(context))
    return { run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, context as Context.Context<R>), userId, email, count: fetch.count }
  })

const serverAccess = () =>
  Effect.map(
    Layer.build(Stack.layerServer({ ...options(), secretServerKey: main.server.emulator.demo.secretServerKey })),
    (context) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, context as Context.Context<R>)
  )

const runScoped = <A, E>(effect: Effect.Effect<A, E, import("effect").Scope.Scope>) => Effect.runPromise(Effect.scoped(effect))

describe("teams over HTTP against the emulator", () => {
  it("create_team_on_sign_up (switched on through the admin config): a new user has created and selected a personal team", async () => {
    const admin = Stack.layerAdmin({ ...options(), superSecretAdminKey: main.server.emulator.demo.superSecretAdminKey })
    await Effect.runPromise(AdminProjects.updateCurrent({ config: { createTeamOnSignUp: true } }).pipe(Effect.provide(admin)))
    try {
      const outcome = await runScoped(
        Effect.gen(function* () {
          const ada = yield* browser("personal")
          const teams = yield* ada.run(Teams.listMine())
          const me = Option.getOrThrow(yield* ada.run(Users.getCurrent()))
          return { teams, me, email: ada.email }
        })
      )
      expect(outcome.teams.map((team) => team.displayName)).toEqual([`${outcome.email}'s Team`])
      expect(outcome.me.selectedTeamId).toBe(outcome.teams[0]!.id)
    } finally {
      await Effect.runPromise(AdminProjects.updateCurrent({ config: { createTeamOnSignUp: false } }).pipe(Effect.provide(admin)))
    }
  })

  it("client: create → listMine (cached) → get → update → select → member profiles → delete", async () => {
    const outcome = await runScoped(
      Effect.gen(function* () {
        const ada = yield* browser("ada")
        const team = yield* ada.run(Teams.create({ displayName: "E2E Team", clientMetadata: { plan: "free" } }))
        const before = ada.count("GET /teams")
        const first = yield* ada.run(Teams.listMine())
        const second = yield* ada.run(Teams.listMine())
        const listRequests = ada.count("GET /teams") - before
        const read = yield* ada.run(Teams.get(team.id))
        const updated = yield* ada.run(Teams.update(team.id, { displayName: "E2E Renamed", clientMetadata: { color: "teal" } }))
        const relisted = yield* ada.run(Teams.listMine())
        const selected = yield* ada.run(Users.updateCurrent({ selectedTeamId: team.id }))
        const profile = yield* ada.run(TeamMemberProfiles.updateMine(team.id, { displayName: "Captain" }))
        const profiles = yield* ada.run(TeamMemberProfiles.list(team.id))
        const own = yield* ada.run(TeamMemberProfiles.get(team.id))
        yield* ada.run(Teams.delete(team.id))
        const afterDelete = yield* ada.run(Teams.listMine())
        const user = Option.getOrThrow(yield* ada.run(Users.getCurrent()))
        return { ada, team, first, second, listRequests, read, updated, relisted, selected, profile, profiles, own, afterDelete, user }
      })
    )
    expect(outcome.first.map((t) => t.id)).toEqual([outcome.team.id])
    expect(outcome.second).toEqual(outcome.first)
    expect(outcome.listRequests).toBe(1)
    expect(outcome.read.clientMetadata).toEqual({ plan: "free" })
    expect(outcome.updated.displayName).toBe("E2E Renamed")
    expect(outcome.relisted[0]!.displayName).toBe("E2E Renamed")
    expect(outcome.selected.selectedTeam?.id).toBe(outcome.team.id)
    expect(outcome.profile.displayName).toBe("Captain")
    expect(outcome.profiles).toEqual([{ teamId: outcome.team.id, userId: outcome.ada.userId, displayName: "Captain", profileImageUrl: null }])
    expect(outcome.own).toEqual(outcome.profiles[0])
    expect(outcome.afterDelete).toEqual([])
    expect(outcome.user.selectedTeam).toBeNull()
  })

  it("invitation: send → code from the outbox → check → details → accept in the invitee's session → leave", async () => {
    const outcome = await runScoped(
      Effect.gen(function* () {
        const ada = yield* browser("inviter")
        const bob = yield* browser("invitee")
        const team = yield* ada.run(Teams.create({ displayName: "Invite Team" }))
        const invitationId = yield* ada.run(TeamInvitations.send({ teamId: team.id, email: bob.email }))
        const pending = yield* ada.run(TeamInvitations.list(team.id))
        const mail = main.server.emulator.latestEmail({ email: bob.email, kind: "team_invitation" })!
        yield* bob.run(TeamInvitations.checkCode(mail.code!))
        const details = yield* bob.run(TeamInvitations.details(mail.code!))
        yield* bob.run(TeamInvitations.accept(mail.code!))
        const bobsTeams = yield* bob.run(Teams.listMine())
        const reused = yield* Effect.flip(bob.run(TeamInvitations.accept(mail.code!)))
        const members = yield* ada.run(TeamMemberProfiles.list(team.id))
        const denied = yield* Effect.flip(bob.run(Teams.update(team.id, { displayName: "Mine now" })))

        // a second invitation, revoked before use
        yield* ada.run(TeamInvitations.send({ teamId: team.id, email: uniqueEmail("carol") }))
        const [second] = yield* ada.run(TeamInvitations.list(team.id))
        yield* ada.run(TeamInvitations.revoke(team.id, second!.id))
        const afterRevoke = yield* ada.run(TeamInvitations.list(team.id))

        yield* bob.run(Teams.leave(team.id))
        const afterLeave = yield* bob.run(Teams.listMine())
        return { team, invitationId, pending, mail, details, bobsTeams, reused, members, denied, afterRevoke, afterLeave, ada, bob }
      })
    )
    expect(outcome.pending.map((i) => [i.id, i.recipientEmail])).toEqual([[outcome.invitationId, outcome.bob.email]])
    expect(outcome.mail.link).toBe(`http://localhost:3000/handler/team-invitation?code=${outcome.mail.code}`)
    expect(outcome.details).toEqual({ teamId: outcome.team.id, teamDisplayName: "Invite Team" })
    expect(outcome.bobsTeams.map((t) => t.id)).toEqual([outcome.team.id])
    expect(outcome.reused._tag).toBe("VerificationCodeAlreadyUsed")
    expect(outcome.members.map((m) => m.userId)).toEqual([outcome.ada.userId, outcome.bob.userId])
    expect(outcome.denied._tag).toBe("TeamPermissionRequired")
    expect(outcome.afterRevoke).toEqual([])
    expect(outcome.afterLeave).toEqual([])
  })

  it("invitation by id: a user with a verified e-mail lists its invitations and accepts one by id", async () => {
    const outcome = await runScoped(
      Effect.gen(function* () {
        const server = yield* serverAccess()
        const ada = yield* browser("by-id-inviter")
        const bob = yield* browser("by-id-invitee")
        yield* server(ServerUsers.update(bob.userId, { primaryEmailVerified: true }))
        const team = yield* ada.run(Teams.create({ displayName: "By Id Team" }))
        const invitationId = yield* ada.run(TeamInvitations.send({ teamId: team.id, email: bob.email }))
        const mine = yield* bob.run(TeamInvitations.listMine())
        yield* bob.run(TeamInvitations.acceptById(invitationId))
        const teams = yield* bob.run(Teams.listMine())
        const again = yield* Effect.flip(bob.run(TeamInvitations.acceptById(invitationId)))
        return { team, invitationId, mine, teams, again }
      })
    )
    expect(outcome.mine.map((i) => [i.id, i.teamDisplayName])).toEqual([[outcome.invitationId, "By Id Team"]])
    expect(outcome.teams.map((t) => t.id)).toEqual([outcome.team.id])
    expect(outcome.again._tag).toBe("VerificationCodeNotFound")
  })

  it("server: create with a creator → update metadata → list → memberships → users by team_id → delete", async () => {
    const outcome = await runScoped(
      Effect.gen(function* () {
        const server = yield* serverAccess()
        const ada = yield* browser("server-creator")
        const bob = yield* browser("server-member")
        const team = yield* server(ServerTeams.create({ displayName: "Server Team", creatorUserId: ada.userId, serverMetadata: { billing: "manual" } }))
        const updated = yield* server(ServerTeams.update(team.id, { clientReadOnlyMetadata: { tier: 2 } }))
        const adasTeams = yield* server(ServerTeams.list({ userId: ada.userId }))
        const all = yield* server(ServerTeams.list())
        const membership = yield* server(ServerTeams.addMember(team.id, bob.userId))
        const duplicate = yield* Effect.flip(server(ServerTeams.addMember(team.id, bob.userId)))
        const byTeam = yield* server(ServerUsers.list({ teamId: team.id }))
        const profiles = yield* server(ServerTeams.listMemberProfiles({ teamId: team.id }))
        yield* server(ServerTeams.removeMember(team.id, bob.userId))
        const notMember = yield* Effect.flip(server(ServerTeams.removeMember(team.id, bob.userId)))
        const afterRemove = yield* server(ServerUsers.list({ teamId: team.id }))
        const clientView = yield* ada.run(Teams.get(team.id))
        yield* server(ServerTeams.delete(team.id))
        const gone = yield* Effect.flip(server(ServerTeams.get(team.id)))
        return { team, updated, adasTeams, all, membership, duplicate, byTeam, profiles, notMember, afterRemove, clientView, gone, ada, bob }
      })
    )
    expect(outcome.team.serverMetadata).toEqual({ billing: "manual" })
    expect(outcome.updated.clientReadOnlyMetadata).toEqual({ tier: 2 })
    expect(outcome.adasTeams.map((t) => t.id)).toEqual([outcome.team.id])
    expect(outcome.all.map((t) => t.id)).toContain(outcome.team.id)
    expect(outcome.membership).toEqual({ teamId: outcome.team.id, userId: outcome.bob.userId })
    expect(outcome.duplicate._tag).toBe("TeamMembershipAlreadyExists")
    expect(outcome.byTeam.items.map((u) => u.id).sort()).toEqual([outcome.ada.userId, outcome.bob.userId].sort())
    expect(outcome.profiles.map((p) => p.user.primaryEmail)).toEqual([outcome.ada.email, outcome.bob.email])
    expect(outcome.notMember._tag).toBe("TeamMembershipNotFound")
    expect(outcome.afterRemove.items.map((u) => u.id)).toEqual([outcome.ada.userId])
    expect(outcome.clientView.clientReadOnlyMetadata).toEqual({ tier: 2 })
    expect(outcome.gone._tag).toBe("TeamNotFound")
  })
})
