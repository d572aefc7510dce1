/**
 * `create_team_on_sign_up`: every way a user comes into being — password sign-up, magic link,
 * anonymous sign-up, server create — gives them a personal team they created and have selected;
 * upgrading an anonymous user with a password renames the team after its e-mail. With the switch
 * off, nobody gets a team.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { Anonymous, MagicLink, Password, ServerTeams, ServerUsers, Stack, Teams, Users } from "../../src/index.js"
import * as Emulator from "../../src/emulator/index.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import { appUrl, setup, within } from "./support.js"

describe("create_team_on_sign_up", () => {
  it.effect("password sign-up: the new user created a personal team and has it selected", () =>
    Effect.gen(function* () {
      const { signUp } = yield* setup({ createTeamOnSignUp: true })
      const ada = yield* signUp("ada@example.com")
      const teams = yield* within(ada.client)(Teams.listMine())
      expect(teams.map((team) => team.displayName)).toEqual(["ada@example.com's Team"])
      const user = Option.getOrThrow(yield* within(ada.client)(Users.getCurrent()))
      expect(user.selectedTeamId).toBe(teams[0]!.id)
    }))

  it.effect("magic-link sign-up gets one too, and so does a server create (its answer, built before the team, shows none selected); with the switch off, nobody does", () =>
    Effect.gen(function* () {
      const on = yield* setup({ createTeamOnSignUp: true, magicLinkEnabled: true })
      const created = yield* within(on.server)(ServerUsers.create({ primaryEmail: "bob@example.com", displayName: "Bob" }))
      const bobTeams = yield* within(on.server)(ServerTeams.list({ userId: created.id }))
      expect(bobTeams.map((team) => team.displayName)).toEqual(["Bob's Team"])
      expect(created.selectedTeamId).toBeNull()

      const client = yield* Layer.build(
        Layer.merge(
          Stack.layerClient({
            projectId: on.project.projectId,
            publishableClientKey: on.project.publishableClientKey,
            httpClient: Emulator.layerHttpClient(on.emulator)
          }),
          HandlerUrls.layer({ appUrl })
        )
      )
      yield* within(client)(MagicLink.sendMagicLinkEmail({ email: "cy@example.com" }))
      const code = on.emulator.latestEmail({ email: "cy@example.com", kind: "magic_link" })!.code!
      const signedIn = yield* within(client)(MagicLink.signInWithMagicLinkCode(code))
      expect(signedIn.isNewUser).toBe(true)
      expect((yield* within(client)(Teams.listMine())).map((team) => team.displayName)).toEqual(["cy@example.com's Team"])

      const off = yield* setup({ createTeamOnSignUp: false })
      const dan = yield* off.signUp("dan@example.com")
      expect(yield* within(dan.client)(Teams.listMine())).toEqual([])
    }))

  it.effect("anonymous sign-up gets 'Personal Team'; upgrading with a password names it after the e-mail", () =>
    Effect.gen(function* () {
      const { emulator, project } = yield* setup({ createTeamOnSignUp: true })
      const client = yield* Layer.build(
        Layer.merge(
          Stack.layerClient({
            projectId: project.projectId,
            publishableClientKey: project.publishableClientKey,
            httpClient: Emulator.layerHttpClient(emulator)
          }),
          HandlerUrls.layer({ appUrl })
        )
      )
      yield* within(client)(Anonymous.signUp())
      const before = yield* within(client)(Teams.listMine())
      expect(before.map((team) => team.displayName)).toEqual(["Personal Team"])
      yield* within(client)(Password.signUpWithPassword({ email: "eve@example.com", password: "correct horse battery" }))
      const after = yield* within(client)(Teams.listMine())
      expect(after.map((team) => [team.id, team.displayName])).toEqual([[before[0]!.id, "eve@example.com's Team"]])
    }))
})
