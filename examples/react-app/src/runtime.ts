/**
 * The app's Effect runtime, built once from its layers: client access to the demo project with
 * the browser cookie token store (sessions survive reloads and are shared by tabs), the query
 * cache (part of `Stack.layerClient`), and the browser pieces of the OAuth and passkey flows.
 */
import { HttpClient } from "@effect/platform"
import { Effect, Layer, ManagedRuntime } from "effect"
import * as OAuthBrowser from "../../../src/auth/OAuthBrowser.js"
import * as WebAuthnBrowser from "../../../src/auth/WebAuthnBrowser.js"
import * as StackClient from "../../../src/core/StackClient.js"
import * as BrowserCookieStore from "../../../src/session/BrowserCookieStore.js"
import * as Stack from "../../../src/Stack.js"
import { config } from "./config.js"

/**
 * `fetch` without the W3C `traceparent` header Effect adds to requests made inside spans: it is
 * not one of the headers the API allows cross-origin (CORS), so the browser would refuse every call.
 */
const httpClient = Layer.effect(
  HttpClient.HttpClient,
  Effect.map(HttpClient.HttpClient, (client) => HttpClient.withTracerPropagation(client, false))
).pipe(Layer.provide(StackClient.layerFetch))

/** Everything the screens' effects may need. */
export const AppLayer = Layer.mergeAll(
  Stack.layerClient({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: config.apiUrl,
    tokenStore: BrowserCookieStore.layer({ projectId: config.projectId }),
    httpClient
  }),
  OAuthBrowser.layerBrowser,
  WebAuthnBrowser.layerBrowser
)

/** The runtime handed to `StackProvider`. */
export const runtime = ManagedRuntime.make(AppLayer)
