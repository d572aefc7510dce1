/**
 * Whether the API answers, as the app's own HTTP client sees it. The SDK retries a request that
 * got no answer (up to 5 attempts, with backoff: about 15 s in all) before a call fails with
 * `ConnectivityError`; this store knows at the *first* failed attempt, so the page can say "can't
 * reach the server, retrying…" at once instead of "Loading…" for 20 s, and knows again at the
 * first answer that the server is back.
 *
 * It is built the way an app adds anything around the SDK's requests: `Stack.layerClient`'s
 * `httpClient` option takes any `HttpClient` layer, here the SDK's own (`StackClient.layerFetch`)
 * with a tap on its answers and its transport failures.
 */
import * as Effect from "effect/Effect"
import * as HttpClient from "effect/http/HttpClient"
import * as Layer from "effect/Layer"
import { useSyncExternalStore } from "react"
import { StackClient } from "stack-auth-effect"

/** What the app knows about the server. */
export interface Connectivity {
  /** `false` from the first request that got no answer until the next answer. */
  readonly reachable: boolean
  /** Requests without an answer since the last answer (each retry counts). */
  readonly failedAttempts: number
}

let state: Connectivity = { reachable: true, failedAttempts: 0 }
const listeners = new Set<() => void>()

const publish = (next: Connectivity) => {
  if (next.reachable === state.reachable && next.failedAttempts === state.failedAttempts) return
  state = next
  for (const listener of listeners) listener()
}

const answered = Effect.sync(() => publish({ reachable: true, failedAttempts: 0 }))
const noAnswer = Effect.sync(() => publish({ reachable: false, failedAttempts: state.failedAttempts + 1 }))

/**
 * The SDK's `fetch` client, reporting to this store: any response (whatever its status) means the
 * server is reachable; a transport failure (no response at all) means it is not.
 */
export const layerObservedFetch: Layer.Layer<HttpClient.HttpClient> = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, (client) =>
    client.pipe(
      HttpClient.tap(() => answered),
      HttpClient.tapError((error) => (error.reason._tag === "TransportError" ? noAnswer : Effect.void))
    ))
).pipe(Layer.provide(StackClient.layerFetch))

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** The current {@link Connectivity} (outside React). */
export const currentConnectivity = (): Connectivity => state

/** The current {@link Connectivity}, re-rendering on change. */
export const useConnectivity = (): Connectivity =>
  useSyncExternalStore(
    subscribe,
    () => state,
    () => state
  )
