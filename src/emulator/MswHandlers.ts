/**
 * The msw adapter: request handlers answering `{baseUrl}/api/*` from the emulator, for tests
 * that intercept `fetch` (Node or browser). The emulator runs with the real clock here. The
 * handlers are `http.all` handlers, the same in msw 2 (2.15 and later) and msw 3.
 *
 * @example
 * ```ts
 * import { setupServer } from "msw/node"
 * import { Effect } from "effect"
 * import * as Emulator from "stack-auth-effect/emulator"
 * import { mswHandlers } from "stack-auth-effect/emulator/msw"
 *
 * const emulator = await Effect.runPromise(Emulator.make())
 * const server = setupServer(...mswHandlers(emulator, "http://localhost:8102"))
 * server.listen()
 * ```
 *
 * @module
 */
import { Effect } from "effect"
import { http } from "msw"
import type { HttpHandler } from "msw"
import type { Emulator } from "./Emulator.js"

/** msw handlers that send every request under `{baseUrl}/api/` to the emulator. */
export const mswHandlers = (emulator: Emulator, baseUrl: string): ReadonlyArray<HttpHandler> => {
  const base = baseUrl.replace(/\/+$/, "")
  return [
    http.all(`${base}/api`, ({ request }) => Effect.runPromise(emulator.handle(request))),
    http.all(`${base}/api/*`, ({ request }) => Effect.runPromise(emulator.handle(request)))
  ]
}
