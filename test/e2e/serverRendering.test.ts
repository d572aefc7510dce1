/**
 * End to end over real HTTP against the emulator server: server rendering with the framework
 * helpers. The SDK signs in (client access, as a browser would); the tokens go into a fake of the
 * framework's cookie store in the official cookie format; the example route
 * (`examples/next-server-route.ts`) reads the user with server access through it; a refresh
 * during the request writes the new access token back into the cookie store; the `x-stack-auth`
 * hand-over header works as well.
 */
import { Effect, Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { makeMeRoute, type MeResponse } from "../../examples/next-server-route.js"
import * as Password from "../../src/auth/Password.js"
import * as CookieTokenStore from "../../src/next/CookieTokenStore.js"
import { currentAuthHeaders } from "../../src/next/RequestSession.js"
import * as Stack from "../../src/Stack.js"
import { Session } from "../../src/session/Session.js"
import { fromStrings, type StoredTokens } from "../../src/session/TokenStore.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const credentials = main.credentials

const uniqueEmail = (label: string) => `e2e-ssr-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** A fake of the framework's `cookies()` store (Next's shape), recording writes. */
class FakeCookies implements CookieTokenStore.FrameworkCookies {
  readonly jar = new Map<string, string>()
  readonly writes: Array<{ readonly name: string; readonly value: string; readonly maxAge: number }> = []
  get = (name: string) => (this.jar.has(name) ? { name, value: this.jar.get(name)! } : undefined)
  getAll = () => [...this.jar].map(([name, value]) => ({ name, value }))
  set = (name: string, value: string, options: CookieTokenStore.FrameworkCookieOptions) => {
    this.writes.push({ name, value, maxAge: options.maxAge })
    if (options.maxAge === 0) this.jar.delete(name)
    else this.jar.set(name, value)
  }
  delete = (name: string) => {
    this.writes.push({ name, value: "", maxAge: 0 })
    this.jar.delete(name)
  }
}

/** Signs up and in as a browser would, and returns the session's tokens and the user id. */
const signIn = async (email: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const password = "correct horse battery"
      const { userId } = yield* Password.signUpWithPassword({ email, password, noVerificationCallback: true })
      yield* Password.signInWithPassword({ email, password })
      const session = yield* Session
      const tokens = yield* session.current
      const headers = yield* currentAuthHeaders
      return { userId, tokens, headers }
    }).pipe(Effect.provide(Stack.layerClient(credentials()))) as Effect.Effect<{
      userId: string
      tokens: StoredTokens
      headers: Record<string, string>
    }>
  )

/** Writes tokens into the fake cookie store the way the SDK's cookie stores do. */
const putTokens = async (cookies: FakeCookies, tokens: StoredTokens) => {
  const store = await Effect.runPromise(CookieTokenStore.make(cookies, { projectId: credentials().projectId }))
  await Effect.runPromise(store.set(tokens))
  cookies.writes.length = 0
}

const routeFor = (cookies: FakeCookies) => {
  const fetch = countingFetch()
  const route = makeMeRoute(
    { ...credentials(), secretServerKey: main.server.emulator.demo.secretServerKey, httpClient: fetch.layer },
    () => Promise.resolve(cookies)
  )
  return { route, count: fetch.count }
}

const call = async (route: ReturnType<typeof makeMeRoute>, init: RequestInit = {}) => {
  const response = await route.GET(new Request("http://127.0.0.1/api/me", init))
  return { status: response.status, body: (await response.json()) as MeResponse }
}

describe("server rendering over HTTP", () => {
  it("reads the signed-in user server-side through the framework's cookie store", async () => {
    const email = uniqueEmail("cookies")
    const { userId, tokens } = await signIn(email)
    // the server view: the user has server metadata, which must never reach the browser
    await Effect.runPromise(
      ServerUsers.update(userId, { serverMetadata: { plan: "pro" } }).pipe(
        Effect.provide(Stack.layerServer({ ...credentials(), secretServerKey: main.server.emulator.demo.secretServerKey }))
      ) as Effect.Effect<unknown>
    )
    const cookies = new FakeCookies()
    await putTokens(cookies, tokens)
    expect([...cookies.jar.keys()].sort()).toEqual([`stack-refresh-${credentials().projectId}--default`, "stack-access"].sort())

    const { route, count } = routeFor(cookies)
    try {
      const { status, body } = await call(route)
      expect(status).toBe(200)
      expect(body).toEqual({ signedIn: true, id: userId, primaryEmail: email, displayName: null })
      expect(JSON.stringify(body)).not.toContain("pro")
      expect(count("GET /users/me")).toBe(1)
      // the access token in the cookie was fresh: no refresh, nothing written
      expect(count("POST /auth/oauth/token")).toBe(0)
      expect(cookies.writes).toEqual([])
    } finally {
      await route.dispose()
    }
  })

  it("a refresh during the request writes the new access token into the cookies; the next request uses it", async () => {
    const email = uniqueEmail("refresh")
    const { userId, tokens } = await signIn(email)
    const cookies = new FakeCookies()
    // only the refresh token: the browser's access cookie expired (stack-access lives 1 day)
    await putTokens(cookies, { accessToken: Option.none(), refreshToken: tokens.refreshToken })
    expect(cookies.jar.has("stack-access")).toBe(false)

    const { route, count } = routeFor(cookies)
    try {
      const first = await call(route)
      expect(first.status).toBe(200)
      expect(first.body).toMatchObject({ signedIn: true, id: userId })
      expect(count("POST /auth/oauth/token")).toBe(1)

      const refreshToken = Redacted.value(Option.getOrThrow(tokens.refreshToken))
      const access = cookies.writes.find((write) => write.name === "stack-access")
      expect(access?.maxAge).toBe(86_400)
      const pair = JSON.parse(access!.value) as [string, string]
      expect(pair[0]).toBe(refreshToken)
      expect(pair[1]).toMatch(/^eyJ/)
      expect(pair[1]).not.toBe(Redacted.value(Option.getOrThrow(tokens.accessToken)))
      const refresh = cookies.writes.find((write) => write.name === `stack-refresh-${credentials().projectId}--default`)
      expect(refresh?.maxAge).toBe(31_536_000)
      expect(JSON.parse(refresh!.value)).toMatchObject({ refresh_token: refreshToken })

      // the next request (same cookies) uses the written access token: no second refresh
      const second = await call(route)
      expect(second.status).toBe(200)
      expect(count("POST /auth/oauth/token")).toBe(1)
      expect(count("GET /users/me")).toBe(2)
    } finally {
      await route.dispose()
    }
  })

  it("the x-stack-auth header from the browser's session wins over the cookies", async () => {
    const email = uniqueEmail("header")
    const { userId, headers } = await signIn(email)
    const cookies = new FakeCookies()
    const { route } = routeFor(cookies)
    try {
      const { status, body } = await call(route, { headers })
      expect(status).toBe(200)
      expect(body).toMatchObject({ signedIn: true, id: userId, primaryEmail: email })
      // cookies of another user lose against the header
      const other = await signIn(uniqueEmail("other"))
      await putTokens(cookies, other.tokens)
      expect((await call(route, { headers })).body).toMatchObject({ id: userId })
      expect((await call(route)).body).toMatchObject({ id: other.userId })
    } finally {
      await route.dispose()
    }
  })

  it("nobody signed in is 401; a malformed x-stack-auth header is 400 TokenStoreError; a revoked refresh token clears the cookies", async () => {
    const cookies = new FakeCookies()
    const { route } = routeFor(cookies)
    try {
      expect(await call(route)).toEqual({ status: 401, body: { signedIn: false } })
      const malformed = await call(route, { headers: { "x-stack-auth": "{not json" } })
      expect(malformed.status).toBe(400)
      expect(malformed.body).toMatchObject({ error: "TokenStoreError", message: "Invalid x-stack-auth header: not valid JSON" })

      // a refresh token the service does not know: the session ends and the cookies are deleted
      await putTokens(cookies, fromStrings(undefined, "not-a-real-refresh-token-0000000000000000000"))
      expect(await call(route)).toEqual({ status: 401, body: { signedIn: false } })
      expect(cookies.jar.size).toBe(0)
    } finally {
      await route.dispose()
    }
  })
})
