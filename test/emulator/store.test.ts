/**
 * The emulator's store (issue 13 item 7, `src/emulator/Store.ts`): one state that owns every
 * table from the start (nothing created on first use, nothing beside the state), and the
 * cascades in one place — deleting a team, removing a member, deleting a project leave nothing
 * of what was deleted behind (its id appears nowhere in the state afterwards).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { deleteProject, deleteTeam, removeMember } from "../../src/emulator/Store.js"
import { memberProfileKey } from "../../src/emulator/State.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"
import { runFlow } from "./oauthFlow.js"
import { userReferences as references } from "./userReferences.js"

const emulatorSources = path.join(import.meta.dirname, "../../src/emulator")

const ok = (answer: { readonly status: number; readonly text: string }, what: string) => {
  if (answer.status >= 300) throw new Error(`${what}: ${answer.status} ${answer.text}`)
}

/** A team with two members (Ada the creator, Bob), a profile, a grant, a pending invitation, a team API key, selected by both. */
const busyTeam = (emulator: Emulator.Emulator) =>
  Effect.gen(function* () {
    const demo = emulator.demo
    const server = serverHeaders(demo)
    const ada = yield* signUp(emulator, demo, "ada.store@example.com")
    const bob = yield* signUp(emulator, demo, "bob.store@example.com")
    const team = yield* send(emulator, { method: "POST", path: "/api/v1/teams", headers: server, body: { display_name: "Busy", creator_user_id: ada.user_id } })
    ok(team, "team")
    const teamId = team.json.id as string
    ok(yield* send(emulator, { method: "POST", path: `/api/v1/team-memberships/${teamId}/${bob.user_id}`, headers: server, body: {} }), "membership")
    ok(
      yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/team-member-profiles/${teamId}/${bob.user_id}`,
        headers: server,
        body: { display_name: "Bob in Busy" }
      }),
      "profile"
    )
    ok(yield* send(emulator, { method: "POST", path: `/api/v1/team-permissions/${teamId}/${bob.user_id}/$delete_team`, headers: server, body: {} }), "grant")
    ok(
      yield* send(emulator, {
        method: "POST",
        path: "/api/v1/team-invitations/send-code",
        headers: clientHeaders(demo, { "x-stack-access-token": ada.access_token }),
        body: { team_id: teamId, email: "carol.store@example.com", callback_url: "http://localhost:3000/handler/team-invitation" }
      }),
      "invitation"
    )
    ok(
      yield* send(emulator, {
        method: "POST",
        path: "/api/v1/team-api-keys",
        headers: server,
        body: { team_id: teamId, description: "ci", expires_at_millis: null }
      }),
      "team key"
    )
    for (const user of [ada, bob]) {
      ok(yield* send(emulator, { method: "PATCH", path: `/api/v1/users/${user.user_id}`, headers: server, body: { selected_team_id: teamId } }), "select")
    }
    const project = emulator.state.projects.get(demo.projectId)!
    return { project, teamId, adaId: ada.user_id, bobId: bob.user_id }
  })

describe("the store owns every table from the start", () => {
  it.effect("a new project holds every table before any request: teams, member profiles, templates, API keys, permissions", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const created = yield* emulator.createProject({})
      const project = emulator.state.projects.get(created.projectId)!
      expect(project.teams.size).toBe(0)
      expect(project.teamMemberProfiles.size).toBe(0)
      expect(project.apiKeys.size).toBe(0)
      expect(project.emailTemplates.size).toBe(7)
      expect([...project.permissions.teamDefinitions.keys()]).toContain("$delete_team")
      expect(project.permissions.projectDefinitions.size).toBe(0)
    }))

  it("no emulator module keeps state beside the store (no WeakMap side tables)", () => {
    const files = fs.readdirSync(emulatorSources, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".ts"))
    const offenders = files.filter((file) => /\bWeakMap\b/.test(fs.readFileSync(path.join(emulatorSources, file), "utf8")))
    expect(offenders).toEqual([])
  })

  it("no route file imports another route file (shared helpers live in emulator modules)", () => {
    const routesDir = path.join(emulatorSources, "routes")
    const offenders: Array<string> = []
    for (const file of fs.readdirSync(routesDir).filter((name) => name.endsWith(".ts") && name !== "index.ts")) {
      const source = fs.readFileSync(path.join(routesDir, file), "utf8")
      for (const match of source.matchAll(/from\s+["'](\.\/[^"']+)["']/g)) offenders.push(`routes/${file} imports ${match[1]}`)
    }
    expect(offenders).toEqual([])
  })
})

describe("cascades", () => {
  it.effect("deleting a team removes its memberships, profiles, grants, invitations, team API keys and selections: its id appears nowhere", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { project, teamId, adaId, bobId } = yield* busyTeam(emulator)
      expect(references(emulator.state, teamId).length).toBeGreaterThan(5)
      deleteTeam(project, teamId)
      expect(references(emulator.state, teamId)).toEqual([])
      expect(project.users.get(adaId)!.selectedTeamId).toBeNull()
      expect(project.users.get(bobId)!.selectedTeamId).toBeNull()
    }))

  it.effect("DELETE /teams/{id} is the same cascade", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { teamId } = yield* busyTeam(emulator)
      ok(yield* send(emulator, { method: "DELETE", path: `/api/v1/teams/${teamId}`, headers: serverHeaders(emulator.demo) }), "delete team")
      expect(references(emulator.state, teamId)).toEqual([])
    }))

  it.effect("removing a member removes the membership, their grants in the team, their profile there and their selection; the team keeps the rest", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { project, teamId, adaId, bobId } = yield* busyTeam(emulator)
      const team = project.teams.get(teamId)!
      removeMember(project, team, bobId)
      expect(team.memberUserIds.has(bobId)).toBe(false)
      expect(project.teamMemberProfiles.has(memberProfileKey(teamId, bobId))).toBe(false)
      expect(project.permissions.teamGrants.get(teamId)?.has(bobId) ?? false).toBe(false)
      expect(project.users.get(bobId)!.selectedTeamId).toBeNull()
      expect(team.memberUserIds.has(adaId)).toBe(true)
      expect(project.users.get(adaId)!.selectedTeamId).toBe(teamId)
    }))

  it.effect("deleting a user removes its member profiles and its pending OAuth flows and codes (tables of the state, not side tables)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const { project, bobId } = yield* busyTeam(emulator)
      const tokens = yield* signUp(emulator, emulator.demo, "linker.store@example.com")
      yield* runFlow(emulator, { project: emulator.demo, email: "linker-gh@example.com", type: "link", token: tokens.access_token })
      expect([...emulator.state.oauthCodes.values()].some((code) => code.userId === tokens.user_id)).toBe(true)
      ok(yield* send(emulator, { method: "DELETE", path: `/api/v1/users/${tokens.user_id}`, headers: serverHeaders(emulator.demo) }), "delete linker")
      ok(yield* send(emulator, { method: "DELETE", path: `/api/v1/users/${bobId}`, headers: serverHeaders(emulator.demo) }), "delete bob")
      expect([...emulator.state.oauthCodes.values()].some((code) => code.userId === tokens.user_id)).toBe(false)
      expect([...project.teamMemberProfiles.values()].some((profile) => profile.userId === bobId)).toBe(false)
      expect(references(emulator.state, tokens.user_id)).toEqual([])
      expect(references(emulator.state, bobId)).toEqual([])
    }))

  it.effect("deleting a project removes its CLI login attempts, OAuth flows and OAuth codes: its id appears nowhere", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const created = yield* emulator.createProject({ config: { oauthProviders: [{ id: "github", provider: "github", type: "standard" }] } })
      const tokens = yield* signUp(emulator, created, "cli.store@example.com")
      ok(yield* send(emulator, { method: "POST", path: "/api/v1/auth/cli", headers: clientHeaders(created), body: {} }), "cli")
      yield* runFlow(emulator, { project: created, email: "gh.store@example.com", type: "link", token: tokens.access_token })
      expect(references(emulator.state, created.projectId).length).toBeGreaterThan(2)
      deleteProject(emulator.state, created.projectId)
      expect(references(emulator.state, created.projectId)).toEqual([])
    }))
})
