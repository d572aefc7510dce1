/**
 * "A refresh that returns nothing ends the session" (SPEC.md §4) over real HTTP: a proxy in front
 * of the emulator answers the refresh grant with a token answer carrying no access token; the
 * session ends (both tokens cleared, the user signed out, no user read sent). A broken answer (an
 * empty 200) is not that: a typed `InvalidResponse`, the refresh token kept, and the next refresh
 * through the real emulator signs the user back in.
 */
import { createServer } from "node:http"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import { TokenStore } from "../../src/session/TokenStore.js"
import * as TokenStoreModule from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import { useServer } from "./support.js"

const main = useServer()

/** What the proxy answers to the refresh grant: forwarded to the emulator, or a fixed answer. */
type RefreshAnswer = "forward" | { readonly status: number; readonly body: string }

let proxy: Server
let proxyUrl: string
let refreshAnswer: RefreshAnswer = "forward"
const seen: Array<string> = []

beforeAll(async () => {
  proxy = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const path = (request.url ?? "/").replace(/^\/api\/v1/, "")
      seen.push(`${request.method} ${path.split("?")[0]}`)
      if (request.method === "POST" && path === "/auth/oauth/token" && refreshAnswer !== "forward") {
        response.writeHead(refreshAnswer.status, { "content-type": "application/json" }).end(refreshAnswer.body)
        return
      }
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && name !== "host" && name !== "content-length") headers.set(name, value)
      }
      const body = Buffer.concat(chunks)
      void fetch(`${main.server.baseUrl}${request.url!}`, {
        method: request.method ?? "GET",
        headers,
        ...(body.length > 0 ? { body } : {})
      }).then(async (answer) => {
        const out: Record<string, string> = {}
        answer.headers.forEach((value, name) => {
          if (name !== "content-encoding" && name !== "content-length" && name !== "transfer-encoding") out[name] = value
        })
        response.writeHead(answer.status, out).end(Buffer.from(await answer.arrayBuffer()))
      })
    })
  })
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve))
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => (proxy === undefined ? resolve() : proxy.close(() => resolve())))
})

/** A user's refresh token only (no access token): the first call refreshes. */
const refreshOnly = async (email: string) => {
  const demo = main.server.emulator.demo
  const signedUp = await Effect.runPromise(
    Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true }).pipe(
      Effect.andThen(Effect.flatMap(TokenStore, (store) => store.get)),
      Effect.provide(
        Stack.layerClient({ projectId: demo.projectId, publishableClientKey: demo.publishableClientKey, baseUrl: main.server.baseUrl, tokenStore: "memory" })
      )
    )
  )
  return { ...TokenStoreModule.empty, refreshToken: signedUp.refreshToken }
}

const through = (initial: TokenStoreModule.StoredTokens) => {
  const demo = main.server.emulator.demo
  return Stack.layerClient({
    projectId: demo.projectId,
    publishableClientKey: demo.publishableClientKey,
    baseUrl: proxyUrl,
    tokenStore: TokenStoreModule.layerMemory(initial)
  })
}

describe("a refresh that returns nothing, over HTTP", () => {
  it("a token answer without an access token ends the session: tokens cleared, signed out, no GET /users/me", async () => {
    const initial = await refreshOnly(`nothing-${Date.now()}@example.com`)
    expect(Option.isSome(initial.refreshToken)).toBe(true)
    refreshAnswer = { status: 200, body: JSON.stringify({ token_type: "Bearer", access_token: null }) }
    seen.length = 0
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(through(initial))
          const user = yield* Users.getCurrent().pipe(Effect.provide(context))
          const stored = yield* Effect.flatMap(TokenStore, (store) => store.get).pipe(Effect.provide(context))
          return { user, stored }
        })
      )
    )
    expect(Option.isNone(outcome.user)).toBe(true)
    expect(Option.isNone(outcome.stored.accessToken) && Option.isNone(outcome.stored.refreshToken)).toBe(true)
    expect(seen).toEqual(["POST /auth/oauth/token"])
  })

  it("an empty 200 is a broken answer: InvalidResponse, the refresh token kept; the next refresh through the emulator signs in", async () => {
    const email = `broken-${Date.now()}@example.com`
    const initial = await refreshOnly(email)
    refreshAnswer = { status: 200, body: "" }
    seen.length = 0
    const outcome = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(through(initial))
          const first = yield* Effect.result(Users.getCurrent().pipe(Effect.provide(context)))
          const kept = yield* Effect.flatMap(TokenStore, (store) => store.get).pipe(Effect.provide(context))
          refreshAnswer = "forward"
          const second = yield* Users.getCurrent().pipe(Effect.provide(context))
          return { first, kept, second }
        })
      )
    )
    expect(outcome.first._tag === "Failure" && outcome.first.failure._tag).toBe("InvalidResponse")
    expect(Option.map(outcome.kept.refreshToken, Redacted.value)).toEqual(Option.map(initial.refreshToken, Redacted.value))
    expect(Option.map(outcome.second, (user) => user.primaryEmail)).toEqual(Option.some(email))
    expect(seen.filter((entry) => entry === "POST /auth/oauth/token")).toHaveLength(2)
  })
})
