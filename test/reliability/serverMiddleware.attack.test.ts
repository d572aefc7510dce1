/**
 * Attacker's review of the server middleware (`stack-auth-effect/server`): whatever the
 * `Authorization` header looks like the answer is a typed 401, and the request's tokens never
 * reach a span, a log line or an answer — including the SDK's own `x-stack-auth` header, which the
 * server tracer of effect/http records (when the app records request headers) unless its name is
 * redacted.
 */
import { Effect, Layer, ManagedRuntime, Schema, Tracer } from "effect"
import { HttpMiddleware, HttpRouter, HttpServer, HttpServerResponse } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"
import { HttpApiAuth, RequestAuth } from "../../src/server/index.js"
import * as Stack from "../../src/Stack.js"
import { countingClient } from "../support/countingClient.js"
import { requestWith, signedInUser } from "../server/support.js"
import type { Target } from "../server/support.js"
import { recordingTracer as recordingTracerOf } from "../support/recordingTracer.js"

const spans: Array<{ readonly name: string; readonly attributes: Map<string, unknown>; readonly events: Array<string> }> = []

const recordingTracer = recordingTracerOf(spans)

/**
 * The recording tracer as the tracer of everything a layer builds and serves, its server spans
 * recording every request header (effect 4 records none unless asked: the test asks, so that it
 * sees what an app that turns header recording on would see).
 */
const tracerLayer = Layer.mergeAll(Layer.succeed(Tracer.Tracer, recordingTracer), Layer.succeed(HttpMiddleware.TracerHeaderFilter, () => true))

class MeGroup extends HttpApiGroup.make("me")
  .add(HttpApiEndpoint.get("me", "/me", { success: Schema.Struct({ id: Schema.String }) }))
  .middleware(HttpApiAuth.Authentication)
{}
class Api extends HttpApi.make("api").add(MeGroup) {}

let emulator: Emulator.Emulator
let target: Target

beforeAll(async () => {
  emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
  target = {
    projectId: emulator.demo.projectId,
    publishableClientKey: emulator.demo.publishableClientKey,
    secretServerKey: emulator.demo.secretServerKey,
    httpClient: countingClient(emulator).layer
  }
})

/** The app's `HttpApi` behind `HttpApiAuth.layer`, traced by the recording tracer, as a web handler. */
const tracedApi = () => {
  const server = Stack.layerServer({
    projectId: target.projectId,
    publishableClientKey: target.publishableClientKey,
    secretServerKey: target.secretServerKey,
    httpClient: target.httpClient,
    tokenStore: "memory"
  })
  const meLive = HttpApiBuilder.group(Api, "me", (handlers) => handlers.handle("me", () => Effect.map(RequestAuth.CurrentUser, (user) => ({ id: user.id }))))
  const live = HttpApiBuilder.layer(Api).pipe(
    Layer.provide(meLive),
    // merged, as node-servers.md does: the layer's redacted header names (x-stack-auth) reach the
    // server's tracer only through the app layer's output (an effect 4 reference, not a fiber ref)
    Layer.provideMerge(HttpApiAuth.layer({ projectId: target.projectId }).pipe(Layer.provide(server)))
  )
  return HttpRouter.toWebHandler(live.pipe(Layer.provide(HttpServer.layerServices), Layer.provideMerge(tracerLayer)), { disableLogger: true })
}

let api: ReturnType<typeof tracedApi> | undefined
afterAll(async () => {
  await api?.dispose()
})

const everything = () => spans.map((span) => `${span.name} ${JSON.stringify([...span.attributes])} ${span.events.join(" ")}`).join("\n")

describe("server middleware under attack", () => {
  it("the request's tokens (bearer, x-stack-auth, cookies) appear in no span attribute or event of the app's server", async () => {
    api = tracedApi()
    const user = await signedInUser(target)
    for (const how of ["bearer", "x-stack-auth", "cookies"] as const) {
      spans.length = 0
      const response = await api.handler(requestWith(target, user, how, "http://app.test/me"))
      expect(response.status).toBe(200)
      expect(spans.some((span) => span.attributes.has("http.request.method"))).toBe(true)
      const recorded = everything()
      expect(recorded).not.toContain(user.accessToken)
      expect(recorded).not.toContain(user.refreshToken)
      if (how === "x-stack-auth") {
        // recorded, as effect records authorization and cookie: by name only
        expect(spans.some((span) => span.attributes.get("http.request.header.x-stack-auth") === "<redacted>")).toBe(true)
      }
    }
  })

  it("HttpRouter app behind HttpApiAuth.middleware on a Stack.layerServer runtime: no token of an x-stack-auth request in any span", async () => {
    const runtime = ManagedRuntime.make(
      Layer.mergeAll(
        Stack.layerServer({
          projectId: target.projectId,
          publishableClientKey: target.publishableClientKey,
          secretServerKey: target.secretServerKey,
          httpClient: target.httpClient,
          tokenStore: "memory"
        }),
        tracerLayer
      )
    )
    let app: { readonly handler: (request: Request) => Promise<Response>; readonly dispose: () => Promise<void> } | undefined
    try {
      const me = Effect.map(RequestAuth.CurrentUser, (user) => HttpServerResponse.jsonUnsafe({ id: user.id }))
      const route = HttpRouter.add("GET", "/me", HttpApiAuth.middleware({ projectId: target.projectId })(me))
      app = HttpRouter.toWebHandler(route.pipe(Layer.provideMerge(Layer.succeedContext(await runtime.context()))), { disableLogger: true })
      const handler = app.handler
      const user = await signedInUser(target)
      spans.length = 0
      const response = await handler(requestWith(target, user, "x-stack-auth", "http://app.test/me"))
      expect(response.status).toBe(200)
      expect(spans.some((span) => span.attributes.has("http.request.method"))).toBe(true)
      expect(everything()).not.toContain(user.refreshToken)
    } finally {
      await app?.dispose()
      await runtime.dispose()
    }
  })

  it("concurrent requests of two users on one handler each get their own user (the per-request authentication is never shared)", async () => {
    api ??= tracedApi()
    const ada = await signedInUser(target)
    const bob = await signedInUser(target)
    const users = Array.from({ length: 12 }, (_, i) => (i % 2 === 0 ? ada : bob))
    const hows = ["bearer", "x-stack-auth", "cookies"] as const
    const answers = await Promise.all(
      users.map(async (user, i) => {
        const response = await api!.handler(requestWith(target, user, hows[i % 3]!, "http://app.test/me"))
        return ((await response.json()) as { readonly id: string }).id
      })
    )
    expect(answers).toEqual(users.map((user) => user.userId))
  })

  it("malformed Authorization headers (other scheme, empty bearer, two tokens, 8 KB of spaces, a huge token) are typed 401 'invalid' that echo nothing", async () => {
    api ??= tracedApi()
    const secret = "s3cr3t-looking-token-value"
    const huge = `Bearer ${"A".repeat(12_000)}`
    for (
      const authorization of [
        `Basic ${secret}`,
        "Bearer",
        "Bearer    ",
        `Bearer ${secret} ${secret}`,
        `bearer${" ".repeat(8_000)}${secret}x ${secret}`,
        `Bearer ${secret}, Bearer ${secret}`,
        huge
      ]
    ) {
      const response = await api.handler(new Request("http://app.test/me", { headers: { authorization } }))
      expect(response.status).toBe(401)
      const text = await response.text()
      expect(text).not.toContain(secret)
      expect(text.length).toBeLessThan(1_000)
    }
    // lower-case scheme and surrounding spaces are still a bearer token (RFC 7235: the scheme is case-insensitive)
    const user = await signedInUser(target)
    const lower = await api.handler(new Request("http://app.test/me", { headers: { authorization: `  bearer   ${user.accessToken}  ` } }))
    expect(lower.status).toBe(200)
  })
})
