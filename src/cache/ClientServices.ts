/**
 * The services every call of the SDK needs, as one type: the settings, the transport, the
 * session, its token store and the query cache — what every `Stack.layerClient` /
 * `layerServer` / `layerAdmin` provides. It lives here, at the rank of the highest service it
 * names (the cache), so that the React binding can name it without importing the package's entry
 * points (docs/ARCHITECTURE.md); `Stack.ClientServices` re-exports it.
 *
 * @module
 */
import type { StackClient } from "../core/StackClient.js"
import type { StackConfig } from "../core/StackConfig.js"
import type { Session } from "../core/Session.js"
import type { TokenStore } from "../session/TokenStore.js"
import type { QueryCache } from "./QueryCache.js"

/** The services every call needs. */
export type ClientServices = StackConfig | StackClient | Session | TokenStore | QueryCache
