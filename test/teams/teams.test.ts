/**
 * Teams through the SDK against the in-process emulator: client create/list/get/update/delete/
 * leave with the `$` permission checks, the client-team-creation switch, selecting a team, server
 * CRUD and memberships, member profiles, and what deleting a team or removing a member takes along.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import * as Permissions from "../../src/emulator/Permissions.js"
import { ServerTeams, ServerUsers, TeamMemberProfiles, Teams, Users } from "../../src/index.js"
import { setup, within } from "./support.js"

const projectOf = (emulator: { state: { projects: Map<string, any> } }, id: string) => emulator.state.projects.get(id)

describe("Teams (client)", () => {
  it.effect("client team creation is refused unless the project allows it", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup({ clientTeamCreationEnabled: false })
      const ada = yield* signUp("ada@example.com")
      const error = yield* Effect.flip(within(ada.client)(Teams.create({ displayName: "Nope" })))
      expect(error._tag).toBe("ClientTeamCreationDisabled")
      expect(error.message).toBe("Client team creation is disabled for this project")
    }))

  it.effect("create → listMine → get → update → select → delete; the creator holds the creator defaults", () =>
    Effect.gen(function* () {
      const { signUp, emulator, project } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const run = within(ada.client)
      const team = yield* run(Teams.create({ displayName: "Ada's Team", clientMetadata: { plan: "free" } }))
      expect(team.displayName).toBe("Ada's Team")
      expect(team.clientMetadata).toEqual({ plan: "free" })
      expect(team.clientReadOnlyMetadata).toBeNull()
      const state = projectOf(emulator, project.projectId)
      expect([...Permissions.teamPermissions(state, team.id, ada.userId, false)]).toEqual(["team_admin"])

      expect((yield* run(Teams.listMine())).map((t) => t.id)).toEqual([team.id])
      expect((yield* run(Teams.get(team.id))).displayName).toBe("Ada's Team")

      const renamed = yield* run(Teams.update(team.id, { displayName: "Renamed", clientMetadata: { color: "teal" } }))
      expect(renamed.displayName).toBe("Renamed")
      // the cached list and team were invalidated by the update
      expect((yield* run(Teams.listMine()))[0]!.displayName).toBe("Renamed")
      expect((yield* run(Teams.get(team.id))).clientMetadata).toEqual({ color: "teal" })

      const selected = yield* run(Users.updateCurrent({ selectedTeamId: team.id }))
      expect(selected.selectedTeamId).toBe(team.id)
      expect(selected.selectedTeam?.displayName).toBe("Renamed")

      yield* run(Teams.delete(team.id))
      expect(yield* run(Teams.listMine())).toEqual([])
      const user = Option.getOrThrow(yield* run(Users.getCurrent()))
      expect(user.selectedTeam).toBeNull()
      expect(user.selectedTeamId).toBeNull()
      expect(state.permissions.teamGrants.has(team.id)).toBe(false)
    }))

  it.effect("a non-member gets TeamMembershipNotFound; a member without $update_team/$delete_team gets TeamPermissionRequired", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))

      const notMember = yield* Effect.flip(within(bob.client)(Teams.get(team.id)))
      expect(notMember._tag).toBe("TeamMembershipNotFound")
      expect(notMember.message).toBe(`User ${bob.userId} is not found in team ${team.id}.`)
      expect((yield* Effect.flip(within(bob.client)(Teams.update(team.id, { displayName: "x" }))))._tag).toBe("TeamMembershipNotFound")
      const selectForeign = yield* Effect.flip(within(bob.client)(Users.updateCurrent({ selectedTeamId: team.id })))
      expect(selectForeign._tag).toBe("TeamMembershipNotFound")

      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))
      expect((yield* within(bob.client)(Teams.get(team.id))).id).toBe(team.id)
      const update = yield* Effect.flip(within(bob.client)(Teams.update(team.id, { displayName: "Bob's now" })))
      expect(update._tag).toBe("TeamPermissionRequired")
      expect(update.message).toBe(`User ${bob.userId} does not have permission $update_team in team ${team.id}.`)
      expect((yield* Effect.flip(within(bob.client)(Teams.delete(team.id))))._tag).toBe("TeamPermissionRequired")
      expect((yield* Effect.flip(within(bob.client)(Teams.removeMember(team.id, ada.userId))))._tag).toBe("TeamPermissionRequired")
    }))

  it.effect("leave: the member's grants, profile and selection go; leaving twice is TeamMembershipNotFound", () =>
    Effect.gen(function* () {
      const { signUp, server, emulator, project } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))
      const state = projectOf(emulator, project.projectId)
      expect([...Permissions.teamPermissions(state, team.id, bob.userId, false)]).toEqual(["team_member"])
      yield* within(bob.client)(Users.updateCurrent({ selectedTeamId: team.id }))
      yield* within(bob.client)(TeamMemberProfiles.updateMine(team.id, { displayName: "Bobby" }))

      yield* within(bob.client)(Teams.leave(team.id))
      expect(yield* within(bob.client)(Teams.listMine())).toEqual([])
      expect(Permissions.teamPermissions(state, team.id, bob.userId, true).size).toBe(0)
      expect(Option.getOrThrow(yield* within(bob.client)(Users.getCurrent())).selectedTeam).toBeNull()
      expect((yield* Effect.flip(within(bob.client)(Teams.leave(team.id))))._tag).toBe("TeamMembershipNotFound")

      // joining again starts from the member defaults and an empty profile
      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))
      const profile = yield* within(bob.client)(TeamMemberProfiles.get(team.id))
      expect(profile.displayName).toBeNull()
    }))

  it.effect("an admin removes another member (client, $remove_members)", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))
      yield* within(ada.client)(Teams.removeMember(team.id, bob.userId))
      expect((yield* within(ada.client)(TeamMemberProfiles.list(team.id))).map((p) => p.userId)).toEqual([ada.userId])
      expect((yield* Effect.flip(within(ada.client)(Teams.removeMember(team.id, bob.userId))))._tag).toBe("TeamMembershipNotFound")
    }))

  it.effect("cache: 20 concurrent listMine send one request; a create invalidates, the next read is fresh", () =>
    Effect.gen(function* () {
      const { signUp, requests } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const run = within(ada.client)
      yield* run(Teams.create({ displayName: "One" }))
      const before = requests()
      const lists = yield* Effect.all(Array.from({ length: 20 }, () => run(Teams.listMine())), { concurrency: "unbounded" })
      expect(requests() - before).toBe(1)
      expect(lists.every((list) => list.length === 1)).toBe(true)
      yield* run(Teams.listMine())
      expect(requests() - before).toBe(1)
      yield* run(Teams.create({ displayName: "Two" }))
      const fresh = yield* run(Teams.listMine())
      expect(fresh.map((t) => t.displayName)).toEqual(["One", "Two"])
      expect(requests() - before).toBe(3)
    }))

  it.effect("a client-set team image must be a base64 image", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const error = yield* Effect.flip(within(ada.client)(Teams.create({ displayName: "T", profileImageUrl: "https://example.com/a.png" })))
      expect(error._tag).toBe("InvalidProfileImageUrl")
      const team = yield* within(ada.client)(Teams.create({ displayName: "T", profileImageUrl: "data:image/png;base64,iVBORw0KGgo=" }))
      expect(team.profileImageUrl).toBe("data:image/png;base64,iVBORw0KGgo=")
    }))
})

describe("TeamMemberProfiles", () => {
  it.effect("list (joining order), get own and others', update own; the user's name shows until a team name is set", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      yield* within(ada.client)(Users.updateCurrent({ displayName: "Ada" }))
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))

      const listed = yield* within(ada.client)(TeamMemberProfiles.list(team.id))
      expect(listed).toEqual([
        { teamId: team.id, userId: ada.userId, displayName: "Ada", profileImageUrl: null },
        { teamId: team.id, userId: bob.userId, displayName: null, profileImageUrl: null }
      ])
      const mine = yield* within(ada.client)(TeamMemberProfiles.updateMine(team.id, { displayName: "Team Alias" }))
      expect(mine.displayName).toBe("Team Alias")
      expect((yield* within(ada.client)(TeamMemberProfiles.list(team.id)))[0]!.displayName).toBe("Team Alias")
      expect((yield* within(bob.client)(TeamMemberProfiles.get(team.id, ada.userId))).displayName).toBe("Team Alias")
      expect((yield* within(ada.client)(Users.getCurrent())).pipe(Option.getOrThrow).displayName).toBe("Ada")

      const server_ = yield* within(server)(ServerTeams.listMemberProfiles({ teamId: team.id }))
      expect(server_.map((p) => [p.userId, p.user.primaryEmail])).toEqual([
        [ada.userId, "ada@example.com"],
        [bob.userId, "bob@example.com"]
      ])
      const updated = yield* within(server)(ServerTeams.updateMemberProfile(team.id, bob.userId, { displayName: "Robert" }))
      expect(updated.displayName).toBe("Robert")
      expect((yield* within(server)(ServerTeams.getMemberProfile(team.id, bob.userId))).user.id).toBe(bob.userId)
    }))

  it.effect("without $read_members a member sees only itself; a non-member sees nothing", () =>
    Effect.gen(function* () {
      const { signUp, server } = yield* setup({ clientTeamCreationEnabled: true, teamMemberDefaultPermissions: [] })
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const carol = yield* signUp("carol@example.com")
      const team = yield* within(ada.client)(Teams.create({ displayName: "Ada's Team" }))
      yield* within(server)(ServerTeams.addMember(team.id, bob.userId))
      const error = yield* Effect.flip(within(bob.client)(TeamMemberProfiles.list(team.id)))
      expect(error._tag).toBe("TeamPermissionRequired")
      expect((yield* Effect.flip(within(bob.client)(TeamMemberProfiles.get(team.id, ada.userId))))._tag).toBe("TeamPermissionRequired")
      expect((yield* within(bob.client)(TeamMemberProfiles.get(team.id))).userId).toBe(bob.userId)
      expect((yield* Effect.flip(within(carol.client)(TeamMemberProfiles.list(team.id))))._tag).toBe("TeamMembershipNotFound")
      expect((yield* Effect.flip(within(carol.client)(TeamMemberProfiles.updateMine(team.id, { displayName: "x" }))))._tag).toBe(
        "TeamMembershipNotFound"
      )
    }))
})

describe("ServerTeams", () => {
  it.effect("create (creator / none) → list (all, by user) → get → update metadata → memberships → delete", () =>
    Effect.gen(function* () {
      const { signUp, server, emulator, project } = yield* setup()
      const ada = yield* signUp("ada@example.com")
      const bob = yield* signUp("bob@example.com")
      const run = within(server)
      const team = yield* run(ServerTeams.create({ displayName: "Server Team", creatorUserId: ada.userId, serverMetadata: { billing: "manual" } }))
      expect(team.serverMetadata).toEqual({ billing: "manual" })
      expect(team.createdAt).toBeInstanceOf(Date)
      const empty = yield* run(ServerTeams.create({ displayName: "Empty" }))

      expect((yield* run(ServerTeams.list())).map((t) => t.id)).toEqual([team.id, empty.id])
      expect((yield* run(ServerTeams.list({ userId: ada.userId }))).map((t) => t.id)).toEqual([team.id])
      const state = projectOf(emulator, project.projectId)
      expect([...Permissions.teamPermissions(state, team.id, ada.userId, false)]).toEqual(["team_admin"])

      const updated = yield* run(ServerTeams.update(team.id, { clientReadOnlyMetadata: { tier: 2 }, serverMetadata: null }))
      expect(updated.clientReadOnlyMetadata).toEqual({ tier: 2 })
      expect(updated.serverMetadata).toBeNull()
      expect((yield* within(ada.client)(Teams.get(team.id))).clientReadOnlyMetadata).toEqual({ tier: 2 })

      expect(yield* run(ServerTeams.addMember(team.id, bob.userId))).toEqual({ teamId: team.id, userId: bob.userId })
      expect((yield* Effect.flip(run(ServerTeams.addMember(team.id, bob.userId))))._tag).toBe("TeamMembershipAlreadyExists")
      const unknownUser = "00000000-0000-4000-8000-000000000000"
      expect((yield* Effect.flip(run(ServerTeams.addMember(team.id, unknownUser))))._tag).toBe("UserNotFound")
      expect((yield* Effect.flip(run(ServerTeams.addMember(unknownUser, bob.userId))))._tag).toBe("TeamNotFound")

      const page = yield* within(server)(ServerUsers.list({ teamId: team.id }))
      expect(page.items.map((u) => u.id).sort()).toEqual([ada.userId, bob.userId].sort())

      yield* run(ServerTeams.removeMember(team.id, bob.userId))
      const again = yield* Effect.flip(run(ServerTeams.removeMember(team.id, bob.userId)))
      expect(again._tag).toBe("TeamMembershipNotFound")
      expect((yield* within(server)(ServerUsers.list({ teamId: team.id }))).items.map((u) => u.id)).toEqual([ada.userId])

      yield* run(ServerTeams.delete(team.id))
      const gone = yield* Effect.flip(run(ServerTeams.get(team.id)))
      expect(gone._tag).toBe("TeamNotFound")
      expect(gone.message).toBe(`Team ${team.id} not found.`)
      expect((yield* Effect.flip(run(ServerTeams.delete(team.id))))._tag).toBe("TeamNotFound")
      expect(yield* within(ada.client)(Teams.listMine())).toEqual([])
    }))

  it.effect("create_team_on_sign_up: a user created by the server gets a personal team, selected after the create's answer; an anonymous sign-up's is renamed on upgrade", () =>
    Effect.gen(function* () {
      const { emulator, project, server } = yield* setup({ createTeamOnSignUp: true })
      const user = yield* within(server)(ServerUsers.create({ primaryEmail: "dora@example.com", displayName: "Dora" }))
      expect(user.selectedTeamId).toBeNull()
      const teams = yield* within(server)(ServerTeams.list({ userId: user.id }))
      expect(teams.map((team) => team.displayName)).toEqual(["Dora's Team"])
      expect((yield* within(server)(ServerUsers.getById(user.id))).selectedTeamId).toBe(teams[0]!.id)

      const signUp = yield* emulator.handle(
        new Request("http://localhost/api/v1/auth/anonymous/sign-up", {
          method: "POST",
          headers: { "x-stack-project-id": project.projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": project.publishableClientKey }
        })
      )
      const anonymousId = ((yield* Effect.promise(() => signUp.json())) as { user_id: string }).user_id
      const [personal] = yield* within(server)(ServerTeams.list({ userId: anonymousId }))
      expect(personal!.displayName).toBe("Personal Team")
      yield* within(server)(ServerUsers.update(anonymousId, { isAnonymous: false, displayName: "Eve" }))
      expect((yield* within(server)(ServerTeams.get(personal!.id))).displayName).toBe("Eve's Team")
    }))
})
