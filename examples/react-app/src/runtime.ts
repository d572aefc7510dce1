/**
 * The app's Effect runtime, built once from its layers: client access to the demo project with
 * the browser cookie token store (sessions survive reloads and are shared by tabs), the query
 * cache (part of `Stack.layerClient`), and the browser pieces of the OAuth and passkey flows.
 */
import { Layer, ManagedRuntime } from "effect"
import * as OAuthBrowser from "../../../src/auth/OAuthBrowser.js"
import * as WebAuthnBrowser from "../../../src/auth/WebAuthnBrowser.js"
import * as BrowserCookieStore from "../../../src/session/BrowserCookieStore.js"
import * as Stack from "../../../src/Stack.js"
import { config } from "./config.js"

/** Everything the screens' effects may need. */
export const AppLayer = Layer.mergeAll(
  Stack.layerClient({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: config.apiUrl,
    tokenStore: BrowserCookieStore.layer({ projectId: config.projectId })
  }),
  OAuthBrowser.layerBrowser,
  WebAuthnBrowser.layerBrowser
)

/** The runtime handed to `StackProvider`. */
export const runtime = ManagedRuntime.make(AppLayer)
