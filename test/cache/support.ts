/**
 * Helpers for the query-cache tests: an in-process emulator and "apps" (SDK contexts built from
 * `Stack.layerClient`, each with its own session and cache) that count the requests they send.
 */
import type { Context, Scope } from "effect"
import { Effect, Layer } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import { Password } from "../../src/index.js"
import * as Stack from "../../src/Stack.js"
import { countingClient } from "../support/countingClient.js"

/** A fresh emulator (few PBKDF2 iterations keep the tests fast). */
export const makeEmulator = (options: Emulator.EmulatorOptions = {}) => Emulator.make({ passwordHashIterations: 1000, ...options }).pipe(Effect.orDie)

/** An SDK context and the requests it sent, by "METHOD /path" (below /api/v1, no query). */
export interface App {
  readonly context: Context.Context<Stack.ClientServices>
  readonly count: (key: string) => number
}

/** A counting `HttpClient` over the in-process emulator (shared with the other suites). */
export { countingClient } from "../support/countingClient.js"

/** A client app of `project` (default: the demo project) with its own session and cache. */
export const clientApp = (
  emulator: Emulator.Emulator,
  options: { readonly project?: Emulator.ProjectCredentials; readonly queryCache?: Stack.Overrides["queryCache"] } = {}
): Effect.Effect<App, never, Scope.Scope> => {
  const project = options.project ?? emulator.demo
  const http = countingClient(emulator)
  return Effect.map(
    Layer.build(
      Stack.layerClient({
        projectId: project.projectId,
        publishableClientKey: project.publishableClientKey,
        httpClient: http.layer,
        ...(options.queryCache === undefined ? {} : { queryCache: options.queryCache })
      })
    ).pipe(Effect.orDie),
    (context) => ({ context, count: http.count })
  )
}

/** A password that passes the service's rules. */
export const password = "correct horse battery"

/** Signs up `email` in `app` (the app is then signed in as that user). */
export const signUp = (app: App, email: string) =>
  Password.signUpWithPassword({ email, password, noVerificationCallback: true }).pipe(Effect.provide(app.context))
