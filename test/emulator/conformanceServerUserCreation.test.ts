/**
 * `POST /users` with server access as the service answers it (issue 27), read from the backend's
 * source at stack-auth/stack-auth commit 2f719903b181c20940159e9f3aaaa99bc3ec3b0f:
 * `apps/backend/src/app/api/latest/users/crud.tsx` (`onCreate`, `createPersonalTeamIfEnabled`,
 * `getPersonalTeamDisplayName`; `userPrismaToCrud`'s `auth_with_email`; `checkAuthData`). Sign-ups create their users through the same `onCreate`
 * (`auth/password/sign-up/route.tsx` → `lib/users.tsx` `createOrUpgradeAnonymousUserWithoutRules`
 * → `usersCrudHandlers.adminCreate`), so both get the same personal team.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import { makeEmulator, send, serverHeaders, signUp } from "./helpers.js"

const createUser = (emulator: Emulator.Emulator, body: Readonly<Record<string, unknown>>): Effect.Effect<Answer> =>
  send(emulator, { method: "POST", path: "/api/v1/users", headers: serverHeaders(emulator.demo), body })

const readUser = (emulator: Emulator.Emulator, userId: string): Effect.Effect<Answer> =>
  send(emulator, { path: `/api/v1/users/${userId}`, headers: serverHeaders(emulator.demo) })

const teamsOf = (emulator: Emulator.Emulator, userId: string): Effect.Effect<Answer> =>
  send(emulator, { path: `/api/v1/teams?user_id=${userId}`, headers: serverHeaders(emulator.demo) })

const withPersonalTeams = makeEmulator({ demo: { config: { createTeamOnSignUp: true } } })

describe("POST /users: the personal team of create_team_on_sign_up (users/crud.tsx onCreate)", () => {
  it.effect("the answer is built before the team (selected_team_id and selected_team null); the team is created, with the user as member, and selected", () =>
    Effect.gen(function* () {
      const emulator = yield* withPersonalTeams
      const created = yield* createUser(emulator, { display_name: "Grace", primary_email: "grace@example.com" })
      expect(created.status).toBe(201)
      // onCreate returns `result` (userPrismaToCrud inside the transaction), then calls createPersonalTeamIfEnabled
      expect(created.json.selected_team_id).toBeNull()
      expect(created.json.selected_team).toBeNull()
      const teams = yield* teamsOf(emulator, created.json.id)
      expect(teams.status).toBe(200)
      expect(teams.json.items).toHaveLength(1)
      const team = teams.json.items[0]
      expect(team.display_name).toBe("Grace's Team")
      // the team's member row is updated with isSelected TRUE
      const read = yield* readUser(emulator, created.json.id)
      expect(read.json.selected_team_id).toBe(team.id)
      expect(read.json.selected_team).toMatchObject({ id: team.id, display_name: "Grace's Team" })
      const members = yield* send(emulator, { path: `/api/v1/users?team_id=${team.id}`, headers: serverHeaders(emulator.demo) })
      expect(members.json.items.map((user: { id: string }) => user.id)).toEqual([created.json.id])
    }))

  it.effect("names it `<display name>'s Team`, else `<primary e-mail>'s Team`, else `Personal Team` (getPersonalTeamDisplayName)", () =>
    Effect.gen(function* () {
      const emulator = yield* withPersonalTeams
      const cases: ReadonlyArray<readonly [Readonly<Record<string, unknown>>, string]> = [
        [{ display_name: "Ada", primary_email: "ada@example.com" }, "Ada's Team"],
        [{ primary_email: "bob@example.com" }, "bob@example.com's Team"],
        [{}, "Personal Team"]
      ]
      for (const [body, name] of cases) {
        const created = yield* createUser(emulator, body)
        expect(created.status).toBe(201)
        const teams = yield* teamsOf(emulator, created.json.id)
        expect(teams.json.items.map((team: { display_name: string }) => team.display_name)).toEqual([name])
      }
    }))

  it.effect("later reads show the same team and selected team as after a sign-up", () =>
    Effect.gen(function* () {
      const emulator = yield* withPersonalTeams
      const created = yield* createUser(emulator, { primary_email: "server@example.com" })
      const signedUp = yield* signUp(emulator, emulator.demo, "signup@example.com")
      const shape = (userId: string) =>
        Effect.gen(function* () {
          const user = (yield* readUser(emulator, userId)).json
          const teams = (yield* teamsOf(emulator, userId)).json.items
          return {
            teams: teams.map((team: { display_name: string }) => team.display_name.replace(/^[^']*/, "<e-mail>")),
            selectedIsTheTeam: user.selected_team_id === teams[0]?.id && user.selected_team?.id === teams[0]?.id
          }
        })
      expect(yield* shape(created.json.id)).toEqual(yield* shape(signedUp.user_id))
      expect(yield* shape(created.json.id)).toEqual({ teams: ["<e-mail>'s Team"], selectedIsTheTeam: true })
    }))

  it.effect("without create_team_on_sign_up no team is created", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { createTeamOnSignUp: false } } })
      const created = yield* createUser(emulator, { display_name: "Nobody" })
      expect(created.status).toBe(201)
      expect((yield* teamsOf(emulator, created.json.id)).json.items).toEqual([])
      expect((yield* readUser(emulator, created.json.id)).json.selected_team_id).toBeNull()
    }))
})

describe("POST /users: the e-mail auth flags (users/crud.tsx userPrismaToCrud, checkAuthData)", () => {
  it.effect("auth_with_email is `!!passwordAuth || !!otpAuth`: true with a password or OTP auth, false for an e-mail used for auth alone", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const cases: ReadonlyArray<readonly [Readonly<Record<string, unknown>>, boolean]> = [
        [{ primary_email: "pw.auth@example.com", primary_email_auth_enabled: true, password: "correct horse battery" }, true],
        [{ primary_email: "pw.only@example.com", primary_email_auth_enabled: false, password: "correct horse battery" }, true],
        [{ primary_email: "otp@example.com", primary_email_auth_enabled: true, otp_auth_enabled: true }, true],
        [{ primary_email: "email.auth@example.com", primary_email_auth_enabled: true }, false]
      ]
      for (const [body, authWithEmail] of cases) {
        const created = yield* createUser(emulator, body)
        expect(created.status, JSON.stringify(body)).toBe(201)
        expect(created.json.auth_with_email, JSON.stringify(body)).toBe(authWithEmail)
        expect((yield* readUser(emulator, created.json.id)).json.auth_with_email, JSON.stringify(body)).toBe(authWithEmail)
      }
    }))

  it.effect("primary_email_auth_enabled true without primary_email is a 400 text (checkAuthData's StatusError), and no user is created", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const userCount = Effect.map(
        send(emulator, { path: "/api/v1/users?include_anonymous=true", headers: serverHeaders(emulator.demo) }),
        (answer) => answer.json.items.length as number
      )
      const before = yield* userCount
      for (const body of [{ primary_email_auth_enabled: true }, { primary_email: null, primary_email_auth_enabled: true }]) {
        const refused = yield* createUser(emulator, body)
        expect([refused.status, refused.headers.get("x-stack-known-error"), refused.text], JSON.stringify(body)).toEqual([
          400,
          null,
          "primary_email_auth_enabled cannot be true without primary_email"
        ])
      }
      expect(yield* userCount).toBe(before)
    }))

  it.effect("the same check on PATCH /users/{id} (onUpdate's checkAuthData); removing the e-mail with it turns e-mail auth off instead", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const created = yield* createUser(emulator, {})
      const patch = (body: Readonly<Record<string, unknown>>) =>
        send(emulator, { method: "PATCH", path: `/api/v1/users/${created.json.id}`, headers: serverHeaders(emulator.demo), body })
      const refused = yield* patch({ primary_email_auth_enabled: true })
      expect([refused.status, refused.text]).toEqual([400, "primary_email_auth_enabled cannot be true without primary_email"])
      const removing = yield* patch({ primary_email: null, primary_email_auth_enabled: true })
      expect(removing.status).toBe(200)
      expect(removing.json.primary_email_auth_enabled).toBe(false)
    }))
})
