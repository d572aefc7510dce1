/**
 * End to end over real HTTP against the emulator server: a server invites a user to a team it is
 * not a member of, lists the team's invitations, lists the invitations addressed to the user (by
 * its verified e-mail), and revokes the invitation.
 */
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as ServerTeamInvitations from "../../src/teams/ServerTeamInvitations.js"
import * as Teams from "../../src/teams/Teams.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { countedConnection, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientTeamCreationEnabled: true } } })

describe("team invitations with server access over HTTP", () => {
  it("send → list → listMine for the invitee → revoke", async () => {
    const { demo, fetch, options } = countedConnection(main)
    const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`
    const inviteeEmail = `e2e-invitee-${stamp}@example.com`
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const owner = yield* Layer.build(Stack.layerClient(options))
          const invitee = yield* Layer.build(Stack.layerClient(options))
          const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: demo.secretServerKey }))
          yield* Password.signUpWithPassword({ email: `e2e-owner-${stamp}@example.com`, password: "correct horse", noVerificationCallback: true }).pipe(
            Effect.provide(owner)
          )
          const bob = yield* Password.signUpWithPassword({ email: inviteeEmail, password: "correct horse", noVerificationCallback: true }).pipe(
            Effect.provide(invitee)
          )
          const team = yield* Teams.create({ displayName: "Invited team" }).pipe(Effect.provide(owner))
          yield* ServerUsers.update(bob.userId, { primaryEmailVerified: true }).pipe(Effect.provide(server))
          const id = yield* ServerTeamInvitations.send({ teamId: team.id, email: inviteeEmail, callbackUrl: "http://localhost:3000/handler/team-invitation" })
            .pipe(
              Effect.provide(server)
            )
          const listed = yield* ServerTeamInvitations.list(team.id).pipe(Effect.provide(server))
          const mine = yield* ServerTeamInvitations.listMine(bob.userId).pipe(Effect.provide(server))
          yield* ServerTeamInvitations.revoke(team.id, id).pipe(Effect.provide(server))
          const after = yield* ServerTeamInvitations.list(team.id).pipe(Effect.provide(server))
          return { id, listed, mine, after }
        })
      )
    )
    expect(outcome.listed.map((invitation) => [invitation.id, invitation.recipientEmail])).toEqual([[outcome.id, inviteeEmail]])
    expect(outcome.mine.map((invitation) => invitation.id)).toEqual([outcome.id])
    expect(outcome.after).toEqual([])
    expect(fetch.count("POST /team-invitations/send-code")).toBe(1)
    expect(fetch.count(`DELETE /team-invitations/${outcome.id}`)).toBe(1)
  })
})
