/**
 * The contenders' "user behind these tokens" call, shared by the per-call children (CPU time and
 * instructions: `call-child.ts`; memory in flight: `inflight-child.ts`): raw `fetch`, the Effect
 * floor (`FetchHttpClient`, one `GET`, the same `ServerUser` schema), this SDK
 * (`ServerUsers.fromRequest`) and the official `StackServerApp.getUser`. Raw and floor send the
 * headers this SDK sends; every answer is checked.
 */
import { Effect, ManagedRuntime, Schema } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { ServerUser } from "../../src/users/User.js"
import { officialServerApp, ourServerRuntime, serverHeaders } from "./project.js"
import type { ProjectConfig } from "./project.js"

/** What a child reads from its config file. */
export interface Config extends ProjectConfig {
  readonly userId: string
  readonly tokens: ReadonlyArray<{ readonly accessToken: string; readonly refreshToken: string }>
}

/** The headers this SDK sends with server access and a session's tokens (raw and floor send the same). */
const headersOf = (config: Config, tokens: Config["tokens"][number], i: number): Record<string, string> => ({
  ...serverHeaders(config, `nonce${i}`),
  "x-stack-access-token": tokens.accessToken,
  "x-stack-refresh-token": tokens.refreshToken
})

/** The call of `side` (`raw` | `floor` | `ours` | `official`): call `i` uses the `i`-th session's tokens (cycled). */
export const makeCall = async (side: string, config: Config): Promise<(i: number) => Promise<void>> => {
  if (side === "raw") {
    return async (i) => {
      const tokens = config.tokens[i % config.tokens.length]!
      const response = await fetch(`${config.baseUrl}/api/v1/users/me`, { headers: headersOf(config, tokens, i) })
      const body = (await response.json()) as { id?: string }
      if (body.id !== config.userId) throw new Error("raw fetch: unexpected answer")
    }
  }
  if (side === "floor") {
    const runtime = ManagedRuntime.make(FetchHttpClient.layer)
    const decode = Schema.decodeUnknownEffect(ServerUser)
    const url = `${config.baseUrl}/api/v1/users/me`
    const get = (i: number) =>
      Effect.flatMap(
        HttpClient.HttpClient,
        (client) => client.execute(HttpClientRequest.setHeaders(HttpClientRequest.get(url), headersOf(config, config.tokens[i % config.tokens.length]!, i)))
      ).pipe(
        Effect.flatMap((response) => response.json),
        Effect.flatMap(decode)
      )
    return async (i) => {
      const user = await runtime.runPromise(get(i))
      if (user.id !== config.userId) throw new Error("floor: unexpected answer")
    }
  }
  if (side === "ours") {
    const runtime = ourServerRuntime(config)
    // the incoming requests, made before the calls (a server receives its request's header as text)
    const requests = config.tokens.map((tokens) => ({ headers: { "x-stack-auth": JSON.stringify(tokens) } }))
    return async (i) => {
      const user = await runtime.runPromise(ServerUsers.fromRequest(requests[i % requests.length]!, { projectId: config.projectId }))
      if (user._tag !== "Some" || user.value.id !== config.userId) throw new Error("ours: unexpected answer")
    }
  }
  const app = await officialServerApp<{ getUser(options: { tokenStore: unknown }): Promise<{ id: string } | null> }>(config)
  return async (i) => {
    const tokens = config.tokens[i % config.tokens.length]!
    const user = await app.getUser({ tokenStore: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } })
    if (user?.id !== config.userId) throw new Error("official: unexpected answer")
  }
}
