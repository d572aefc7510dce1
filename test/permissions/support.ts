/**
 * Support for the permission tests: an in-process emulator, one app layer with client, server and
 * admin access (one session, one query cache) whose requests are recorded, users signed up through
 * the SDK, and teams created through the emulator state.
 *
 * Teams: the team routes are another module's; these tests create a team directly in the
 * emulator state (`teamsOf(project)`, members in `memberUserIds`) and grant the creator's or
 * member's default permissions with `grantTeamDefaults`, as the team routes do.
 */
import * as HttpClient from "effect/http/HttpClient"
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import * as Access from "../../src/core/Access.js"
import * as Emulator from "../../src/emulator/index.js"
import { grantTeamDefaults } from "../../src/emulator/Permissions.js"
import { randomUuid } from "../../src/emulator/Random.js"
import type { ProjectRecord } from "../../src/emulator/State.js"
import { teamsOf } from "../../src/emulator/State.js"
import { Password, Sessions, Stack, Users } from "../../src/index.js"

/** A request as sent: method and path with query, below `/api/v1`. */
export type Sent = string

/** An app (client + server + admin access) on a fresh emulator; `sent` lists its requests. */
export const makeApp = Effect.gen(function* () {
  const emulator = yield* Emulator.make({ passwordHashIterations: 1000 }).pipe(Effect.orDie)
  const sent: Array<Sent> = []
  const httpClient = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (client) =>
      HttpClient.tapRequest(client, (request) =>
        Effect.sync(() => {
          const url = new URL(request.url)
          sent.push(`${request.method} ${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`)
        })))
  ).pipe(Layer.provide(Emulator.layerHttpClient(emulator)))
  const layer = Layer.merge(
    Stack.layerServer({
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      secretServerKey: emulator.demo.secretServerKey,
      httpClient
    }),
    Access.layerAdminKey(emulator.demo.superSecretAdminKey)
  )
  const runtime = yield* Effect.acquireRelease(
    Effect.sync(() => ManagedRuntime.make(layer)),
    (runtime) => Effect.promise(() => runtime.dispose())
  )
  const project: ProjectRecord = emulator.state.projects.get(emulator.demo.projectId)!
  /** Runs an effect in the app (the same session and cache every time). */
  const run = <A, E>(effect: Effect.Effect<A, E, Layer.Success<typeof layer>>) => Effect.promise(() => runtime.runPromise(Effect.result(effect)))
  /** Signs a new user up in the app's session (replacing the previous one); answers its id. */
  const signUp = (email: string) =>
    Effect.flatMap(
      run(
        Effect.gen(function* () {
          yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
          return Option.getOrThrow(yield* Users.getCurrent()).id
        })
      ),
      (result) => (result._tag === "Success" ? Effect.succeed(result.success) : Effect.die(result.failure))
    )
  /** Signs the app's session out. */
  const signOut = run(Sessions.signOut())
  /** Creates a team in the emulator state; the first member is the creator (creator defaults), the others members. */
  const createTeam = (creatorId: string, ...memberIds: ReadonlyArray<string>) => {
    const id = randomUuid()
    teamsOf(project).set(id, { id, displayName: "Team", createdAtMillis: Date.now(), memberUserIds: new Set([creatorId, ...memberIds]) })
    grantTeamDefaults(project, id, creatorId, "creator")
    for (const memberId of memberIds) grantTeamDefaults(project, id, memberId, "member")
    return id
  }
  return { emulator, project, sent, run, signUp, signOut, createTeam }
})

/** The ids of a list of permissions. */
export const ids = (items: ReadonlyArray<{ readonly id: string }>) => items.map((item) => item.id)

/** The team permission definitions of a new project, by id: the six system ones and the two seeded. */
export const seededTeamPermissionIds = [
  "$delete_team",
  "$invite_members",
  "$manage_api_keys",
  "$read_members",
  "$remove_members",
  "$update_team",
  "team_admin",
  "team_member"
]
