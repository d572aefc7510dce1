/**
 * Issue 27 item 3: `POST /internal/projects/transfer` as the service serves it
 * (`apps/backend/src/app/api/latest/internal/projects/transfer/route.tsx` at stack-auth/stack-auth
 * commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f, with `ensureUserTeamPermissionExists` and
 * `ensureTeamMembershipExists` of `apps/backend/src/lib/request-checks.tsx`): the request's
 * project is `internal` and carries a user (else SCHEMA_ERROR), the project exists
 * (PROJECT_NOT_FOUND) and has an owner team (400 "Project must have an owner team to be
 * transferred"), the user is a member of the owner team with `team_admin` (TEAM_MEMBERSHIP_NOT_FOUND,
 * TEAM_PERMISSION_REQUIRED) and a member of the new team; the answer is `{ success: "true" }`.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaults } from "../../src/emulator/Defaults.js"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const path = "/api/v1/internal/projects/transfer"

const signIn = (emulator: Emulator.Emulator, email: string, password: string) =>
  Effect.map(
    send(emulator, { method: "POST", path: "/api/v1/auth/password/sign-in", headers: clientHeaders(emulator.internal), body: { email, password } }),
    (answer) => answer.json.access_token as string
  )

const transfer = (emulator: Emulator.Emulator, token: string | undefined, body: Record<string, unknown>, credentials = emulator.internal) =>
  send(emulator, {
    method: "POST",
    path,
    headers: clientHeaders(credentials, token === undefined ? {} : { "x-stack-access-token": token }),
    body
  })

const newTeam = (emulator: Emulator.Emulator, creatorUserId: string, name: string) =>
  Effect.map(
    send(emulator, {
      method: "POST",
      path: "/api/v1/teams",
      headers: serverHeaders(emulator.internal),
      body: { display_name: name, creator_user_id: creatorUserId }
    }),
    (answer) => answer.json.id as string
  )

describe("project transfer", () => {
  it.effect("the owner team's admin moves the project to another team of theirs; the project reads the new owner team", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const owner = defaults.internalOwner
      const token = yield* signIn(emulator, owner.email, owner.password)
      const target = yield* newTeam(emulator, owner.userId, "Target Team")
      const answer = yield* transfer(emulator, token, { project_id: emulator.demo.projectId, new_team_id: target })
      expect([answer.status, answer.json]).toEqual([200, { success: "true" }])
      const project = yield* send(emulator, {
        path: "/api/v1/internal/projects/current",
        headers: {
          "x-stack-project-id": emulator.demo.projectId,
          "x-stack-access-type": "admin",
          "x-stack-super-secret-admin-key": emulator.demo.superSecretAdminKey
        }
      })
      expect(project.json.owner_team_id).toBe(target)
      // the new owner team's admin (its creator) may move it back
      const back = yield* transfer(emulator, token, { project_id: emulator.demo.projectId, new_team_id: owner.teamId })
      expect([back.status, back.json]).toEqual([200, { success: "true" }])
    }))

  it.effect("refusals: unknown project, no owner team, not a member, not team_admin, not a member of the new team", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const owner = defaults.internalOwner
      const token = yield* signIn(emulator, owner.email, owner.password)

      const unknown = yield* transfer(emulator, token, { project_id: "6f1e7a0c-1111-4a4a-9b9b-222233334444", new_team_id: owner.teamId })
      expect([unknown.status, unknown.json.code]).toEqual([404, "PROJECT_NOT_FOUND"])

      const orphan = yield* emulator.createProject({}).pipe(Effect.orDie)
      const noOwner = yield* transfer(emulator, token, { project_id: orphan.projectId, new_team_id: owner.teamId })
      expect([noOwner.status, noOwner.text]).toEqual([400, "Project must have an owner team to be transferred"])

      const memberAccount = yield* signUp(emulator, emulator.internal, "member@example.com")
      const strangerTeam = yield* newTeam(emulator, memberAccount.user_id, "Member's Team")
      const notMember = yield* transfer(emulator, memberAccount.access_token, { project_id: emulator.demo.projectId, new_team_id: strangerTeam })
      expect(notMember.json).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: owner.teamId, user_id: memberAccount.user_id } })

      const joined = yield* send(emulator, {
        method: "POST",
        path: `/api/v1/team-memberships/${owner.teamId}/${memberAccount.user_id}`,
        headers: serverHeaders(emulator.internal),
        body: {}
      })
      expect(joined.status).toBe(201)
      const notAdmin = yield* transfer(emulator, memberAccount.access_token, { project_id: emulator.demo.projectId, new_team_id: strangerTeam })
      expect(notAdmin.json).toMatchObject({
        code: "TEAM_PERMISSION_REQUIRED",
        details: { team_id: owner.teamId, user_id: memberAccount.user_id, permission_id: "team_admin" }
      })

      const notInNewTeam = yield* transfer(emulator, token, { project_id: emulator.demo.projectId, new_team_id: strangerTeam })
      expect(notInNewTeam.json).toMatchObject({ code: "TEAM_MEMBERSHIP_NOT_FOUND", details: { team_id: strangerTeam, user_id: owner.userId } })
    }))

  it.effect("without a user, or on another project than internal, the request is a SCHEMA_ERROR", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const body = { project_id: emulator.demo.projectId, new_team_id: defaults.internalOwner.teamId }
      const anonymous = yield* transfer(emulator, undefined, body)
      expect(anonymous.json).toMatchObject({ code: "SCHEMA_ERROR" })
      expect(anonymous.json.error).toContain("auth.user must be defined")
      const demoUser = yield* signUp(emulator, emulator.demo, "demo-user@example.com")
      const elsewhere = yield* transfer(emulator, demoUser.access_token, body, emulator.demo)
      expect(elsewhere.json).toMatchObject({ code: "SCHEMA_ERROR" })
      expect(elsewhere.json.error).toContain("auth.project.id must be one of the following values: internal")
    }))
})
