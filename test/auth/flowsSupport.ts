/**
 * Helpers for the MFA / anonymous / getUser / CLI / sessions unit tests: an in-process emulator
 * and "devices" — SDK contexts with their own session (memory token store) that count the
 * requests they send by "METHOD /path".
 */
import type { Context, Scope } from "effect"
import { Effect, Layer } from "effect"
import type { AdminAccess, ServerAccess } from "../../src/core/Access.js"
import * as Emulator from "../../src/emulator/index.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Stack from "../../src/Stack.js"
import { testRetryPolicy } from "../support/fixtures.js"
import { countingClient } from "../support/countingClient.js"

/** A fresh emulator (few PBKDF2 iterations keep the suite fast). */
export const makeEmulator = (options: Emulator.EmulatorOptions = {}) => Emulator.make({ passwordHashIterations: 1000, ...options }).pipe(Effect.orDie)

/** An SDK context with its own session, and the requests it sent. */
export interface Device<R> {
  readonly context: Context.Context<R>
  /** Requests sent, by "METHOD /path" (path below /api/v1, no query). */
  readonly count: (key: string) => number
  /** Every request sent, in order ("METHOD /path"). */
  readonly requests: ReadonlyArray<string>
}

const build = <R, E>(layer: Layer.Layer<R, E>, requests: Array<string>): Effect.Effect<Device<R>, never, Scope.Scope> =>
  Effect.map(Layer.build(layer).pipe(Effect.orDie), (context) => ({
    context,
    requests,
    count: (key: string) => requests.filter((request) => request === key).length
  }))

/** A browser or CLI of the demo project: client access. */
export const clientDevice = (
  emulator: Emulator.Emulator,
  initial: TokenStore.StoredTokens = TokenStore.empty
): Effect.Effect<Device<Stack.ClientServices>, never, Scope.Scope> => {
  const http = countingClient(emulator)
  return build(
    Stack.layerClient({
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      httpClient: http.layer,
      retryPolicy: testRetryPolicy,
      tokenStore: TokenStore.layerMemory(initial)
    }),
    http.requests
  )
}

/** A backend of the demo project: server access. */
export const serverDevice = (
  emulator: Emulator.Emulator
): Effect.Effect<Device<Stack.ClientServices | ServerAccess>, never, Scope.Scope> => {
  const http = countingClient(emulator)
  return build(
    Stack.layerServer({
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      secretServerKey: emulator.demo.secretServerKey,
      httpClient: http.layer
    }),
    http.requests
  )
}

/** An admin tool of the demo project: admin access (super secret admin key). */
export const adminDevice = (
  emulator: Emulator.Emulator
): Effect.Effect<Device<Stack.ClientServices | AdminAccess>, never, Scope.Scope> => {
  const http = countingClient(emulator)
  return build(
    Stack.layerAdmin({
      projectId: emulator.demo.projectId,
      publishableClientKey: emulator.demo.publishableClientKey,
      superSecretAdminKey: emulator.demo.superSecretAdminKey,
      httpClient: http.layer
    }),
    http.requests
  )
}

/** A password that passes the service's rules. */
export const password = "correct horse battery"
