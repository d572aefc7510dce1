/**
 * The app's Effect runtime, built once from its layers: client access to the demo project (in a
 * browser `Stack.layerClient` keeps the session in cookies by default: it survives reloads and is
 * shared by tabs), the query cache (part of `Stack.layerClient`), and the browser pieces of the
 * OAuth and passkey flows, and an HTTP client that tells the page when the server does not answer. The hooks are made from it: they accept only effects this runtime can
 * run (a server-only call such as `ServerUsers.list()` does not compile here).
 */
import { Layer, ManagedRuntime } from "effect"
import { OAuthBrowser, Stack, WebAuthnBrowser } from "stack-auth-effect"
import { makeStackHooks } from "stack-auth-effect/react"
import { config } from "./config.js"
import { layerObservedFetch } from "./connectivity.js"

/** Everything the screens' effects may need. */
export const AppLayer = Layer.mergeAll(
  Stack.layerClient({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    baseUrl: config.apiUrl,
    // the SDK's fetch client, watched: the page knows at the first failed attempt that the
    // server is unreachable (./connectivity.ts)
    httpClient: layerObservedFetch
  }),
  OAuthBrowser.layerBrowser,
  WebAuthnBrowser.layerBrowser
)

/** The runtime handed to `StackProvider`. */
export const runtime = ManagedRuntime.make(AppLayer)

/** The services the runtime provides: what the app's effects may require. */
export type AppServices = Layer.Success<typeof AppLayer>

/** The hooks of the app, typed by {@link runtime}'s services. */
export const {
  useApiKeys,
  useContactChannels,
  usePermission,
  useSessions,
  useStackMutation,
  useStackQuery,
  useTeam,
  useTeamApiKeys,
  useTeamInvitations,
  useTeamMembers,
  useTeams,
  useUser
} = makeStackHooks(runtime)

/**
 * A mutation whose component shows its typed `error` in place (every form and button of this app
 * does): `handlesError: true`, so such a failure does not also raise the provider's alert. Defects
 * still do.
 */
export const useShownMutation: typeof useStackMutation = (fn, options) => useStackMutation(fn, { ...options, handlesError: true })
