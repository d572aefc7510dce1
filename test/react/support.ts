/**
 * Helpers for the React hook tests: an in-process emulator and an app runtime
 * (`ManagedRuntime` of `Stack.layerClient`) that counts the requests it sends.
 */
import { Effect, ManagedRuntime } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import { Password, Sessions } from "../../src/index.js"
import * as Stack from "../../src/Stack.js"
import { countingClient } from "../cache/support.js"

/** A password that passes the service's rules. */
export const password = "correct horse battery"

/** An app of `project` (default: the demo project) over `shared` (default: a fresh emulator), with its own session and cache. */
export const makeApp = async (shared?: Emulator.Emulator, project?: Emulator.ProjectCredentials) => {
  const emulator = shared ?? (await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 })))
  const credentials = project ?? emulator.demo
  const http = countingClient(emulator)
  const runtime = ManagedRuntime.make(
    Stack.layerClient({
      projectId: credentials.projectId,
      publishableClientKey: credentials.publishableClientKey,
      httpClient: http.layer
    })
  )
  return {
    emulator,
    runtime,
    count: http.count,
    signUp: (email: string) => runtime.runPromise(Password.signUpWithPassword({ email, password })),
    signIn: (email: string) => runtime.runPromise(Password.signInWithPassword({ email, password })),
    signOut: () => runtime.runPromise(Sessions.signOut()),
    dispose: () => runtime.dispose()
  }
}

/** The app of {@link makeApp}. */
export type App = Awaited<ReturnType<typeof makeApp>>
