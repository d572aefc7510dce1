/**
 * Support for the team tests: an in-process emulator with a project that allows client team
 * creation and team API keys, signed-in client sessions for several users, and server access.
 */
import { Context, Effect, Layer } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import type { ProjectConfig } from "../../src/emulator/State.js"
import { Password, Stack } from "../../src/index.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import { countingClient } from "../projects/support.js"

/** The app URL the tests resolve handler pages against (localhost is trusted by default). */
export const appUrl = "http://localhost:3000"

/** A project on a fresh emulator, a way to sign users in (each with its own client layer) and server access. */
export const setup = (config: Partial<ProjectConfig> = { clientTeamCreationEnabled: true, allowTeamApiKeys: true }) =>
  Effect.gen(function* () {
    const emulator = yield* Emulator.make({ passwordHashIterations: 1000 })
    const project = yield* emulator.createProject({ config })
    const counting = countingClient(emulator)
    const options = { projectId: project.projectId, publishableClientKey: project.publishableClientKey, httpClient: counting.layer }
    /** Signs a new user up in its own client layer (with handler URLs against {@link appUrl}). */
    const signUp = (email: string) =>
      Effect.gen(function* () {
        const client = yield* Layer.build(Layer.merge(Stack.layerClient(options), HandlerUrls.layer({ appUrl })))
        const user = yield* Password.signUpWithPassword({ email, password: "correct horse battery" }).pipe(Effect.provide(client))
        return { client, userId: user.userId, email }
      })
    const server = yield* Layer.build(Stack.layerServer({ ...options, secretServerKey: project.secretServerKey }))
    return { emulator, project, signUp, server, requests: counting.count }
  })

/** Runs an effect with a built context. */
export const within = <R>(context: Context.Context<R>) => <A, E>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E> => Effect.provide(effect, context)
