/**
 * Helpers for the React hook tests: an in-process emulator and an app runtime
 * (`ManagedRuntime` of `Stack.layerClient`) that counts the requests it sends and can hold back
 * the requests of one "METHOD /path" until the test releases them.
 */
import * as HttpClient from "effect/http/HttpClient"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import { Password, Sessions } from "../../src/index.js"
import * as Stack from "../../src/Stack.js"
import { countingClient } from "../cache/support.js"

/** A password that passes the service's rules. */
export const password = "correct horse battery"

/** The key of a request: "METHOD /path" below /api/v1, no query. */
const keyOf = (request: { readonly method: string; readonly url: string }) => `${request.method} ${new URL(request.url).pathname.replace(/^\/api\/v1/, "")}`

/**
 * Gates over an `HttpClient` layer: `hold(key)` makes every later request of `key` wait (before it
 * is sent) until the returned `release` is called; `breakDown(key)` makes them die (a defect, never
 * retried) until the returned `repair` is called.
 */
export const holdable = <E, R>(client: Layer.Layer<HttpClient.HttpClient, E, R>) => {
  const held = new Map<string, Promise<void>>()
  const broken = new Set<string>()
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (inner) =>
      HttpClient.tapRequest(inner, (request) => {
        const key = keyOf(request)
        if (broken.has(key)) return Effect.die(new Error(`${key} is broken down by the test`))
        const gate = held.get(key)
        return gate === undefined ? Effect.void : Effect.promise(() => gate)
      }))
  ).pipe(Layer.provide(client))
  const breakDown = (key: string): () => void => {
    broken.add(key)
    return () => {
      broken.delete(key)
    }
  }
  const hold = (key: string): () => void => {
    let release!: () => void
    held.set(key, new Promise<void>((resolve) => (release = resolve)))
    return () => {
      held.delete(key)
      release()
    }
  }
  return { layer, hold, breakDown }
}

/**
 * An app of `project` (default: the demo project) over `shared` (default: a fresh emulator), with
 * its own session and cache. Under happy-dom the default token store is the page's cookies, shared
 * by every app of the test: a second app standing for another device passes `tokenStore: "memory"`.
 */
export const makeApp = async (
  shared?: Emulator.Emulator,
  project?: Emulator.ProjectCredentials,
  options: { readonly tokenStore?: "memory" | "cookie" } = {}
) => {
  const emulator = shared ?? (await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 })))
  const credentials = project ?? emulator.demo
  const http = countingClient(emulator)
  const gates = holdable(http.layer)
  const runtime = ManagedRuntime.make(
    Stack.layerClient({
      projectId: credentials.projectId,
      publishableClientKey: credentials.publishableClientKey,
      httpClient: gates.layer,
      ...(options.tokenStore === undefined ? {} : { tokenStore: options.tokenStore })
    })
  )
  return {
    emulator,
    runtime,
    count: http.count,
    /** Holds the requests of "METHOD /path" until the returned function is called. */
    hold: gates.hold,
    /** Makes the requests of "METHOD /path" die until the returned function is called. */
    breakDown: gates.breakDown,
    // no verification e-mail: the hook tests never follow it (and on the server no page could take it)
    signUp: (email: string) => runtime.runPromise(Password.signUpWithPassword({ email, password, noVerificationCallback: true })),
    signIn: (email: string) => runtime.runPromise(Password.signInWithPassword({ email, password })),
    signOut: () => runtime.runPromise(Sessions.signOut()),
    dispose: () => runtime.dispose()
  }
}

/** The app of {@link makeApp}. */
export type App = Awaited<ReturnType<typeof makeApp>>
