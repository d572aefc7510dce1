/**
 * End to end over real HTTP against the emulator server: server access creates, lists, updates
 * and deletes users; `ServerUsers.fromRequest` finds the user behind an incoming request's
 * `x-stack-auth` header or cookies.
 */
import { Effect, Layer, Option, Stream } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as Cookies from "../../src/session/cookies.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import { Session } from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientUserDeletionEnabled: false } } })

const credentials = main.credentials

const serverLayer = () => {
  const fetch = countingFetch()
  const layer = Stack.layerServer({
    ...credentials(),
    secretServerKey: main.server.emulator.demo.secretServerKey,
    httpClient: fetch.layer
  })
  return { layer, count: fetch.count }
}

const run = <A, E, R>(effect: Effect.Effect<A, E, R>, layer: Layer.Layer<R, unknown>) =>
  Effect.runPromise(effect.pipe(Effect.provide(layer)) as Effect.Effect<A, unknown>)

const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** Signs a user up in a "browser" (client access) and returns its stored tokens. */
const browserTokens = (email: string) =>
  run(
    Effect.gen(function* () {
      yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
      const session = yield* Session
      return yield* session.current
    }),
    Stack.layerClient(credentials())
  )

describe("server users over HTTP", () => {
  it("creates, lists, updates and deletes a user", async () => {
    const email = uniqueEmail("create")
    const { layer, count } = serverLayer()
    const created = await run(
      ServerUsers.create({
        primaryEmail: email,
        // without it the service does not sign the user in with the e-mail (users/crud.tsx onCreate at stack-auth/stack-auth 2f719903)
        primaryEmailAuthEnabled: true,
        password: "correct horse battery",
        displayName: "Created",
        serverMetadata: { plan: "free" }
      }),
      layer
    )
    expect(count("POST /users")).toBe(1)
    expect(created.primaryEmail).toBe(email)
    expect(created.hasPassword).toBe(true)

    const found = await run(ServerUsers.list({ query: email, limit: 10 }), layer)
    expect(found.items.map((user) => user.id)).toEqual([created.id])
    expect(found.nextCursor).toEqual(Option.none())

    // every page: the new user is listed exactly once
    const occurrences = await run(
      ServerUsers.stream({ limit: 2 }).pipe(Stream.runFold(() => 0, (n: number, user) => (user.id === created.id ? n + 1 : n))),
      layer
    )
    expect(occurrences).toBe(1)

    const updated = await run(
      ServerUsers.update(created.id, { displayName: "Renamed", primaryEmailVerified: true, serverMetadata: { plan: "pro" } }),
      layer
    )
    expect([updated.displayName, updated.primaryEmailVerified, updated.serverMetadata]).toEqual(["Renamed", true, { plan: "pro" }])

    const taken = await run(ServerUsers.create({ primaryEmail: email, primaryEmailAuthEnabled: true }).pipe(Effect.flip), layer)
    expect(taken._tag).toBe("UserEmailAlreadyExists")

    await run(ServerUsers.delete(created.id), layer)
    const gone = await run(ServerUsers.getById(created.id).pipe(Effect.flip), layer)
    expect(gone._tag).toBe("UserNotFound")
    const again = await run(ServerUsers.delete(created.id).pipe(Effect.flip), layer)
    expect(again._tag).toBe("UserNotFound")
  })

  it("fromRequest: the user behind x-stack-auth, behind cookies (refreshing), and nobody", async () => {
    const email = uniqueEmail("request")
    const tokens = await browserTokens(email)
    const { layer, count } = serverLayer()
    const projectId = main.server.emulator.demo.projectId

    const viaHeader = await run(
      ServerUsers.fromRequest(new Request("http://app.test/api", { headers: RequestTokenStore.authHeaders(tokens) }), { projectId }),
      layer
    )
    expect(Option.map(viaHeader, (user) => user.primaryEmail)).toEqual(Option.some(email))
    expect(count("GET /users/me")).toBe(1)

    // cookies holding only the refresh token: the request's session refreshes, then reads the user
    const cookie = Cookies.writeTokens(
      { accessToken: Option.none(), refreshToken: tokens.refreshToken },
      { projectId, secure: false, now: Date.now(), existing: new Map() }
    )[0]!.split(";")[0]!
    const viaCookies = await run(ServerUsers.fromRequest({ headers: { cookie } }, { projectId }), layer)
    expect(Option.map(viaCookies, (user) => [user.primaryEmail, user.lastActiveAt instanceof Date])).toEqual(Option.some([email, true]))
    expect(count("POST /auth/oauth/token")).toBe(1)

    const nobody = await run(ServerUsers.fromRequest(new Request("http://app.test/api"), { projectId }), layer)
    expect(nobody).toEqual(Option.none())

    // a deleted user is nobody
    await run(ServerUsers.delete(Option.getOrThrow(viaHeader).id), layer)
    const afterDelete = await run(
      ServerUsers.fromRequest(new Request("http://app.test/api", { headers: RequestTokenStore.authHeaders(tokens) }), { projectId }),
      layer
    )
    expect(afterDelete).toEqual(Option.none())
  })

  it("a client cannot delete itself while the project disallows it", async () => {
    const tokens = await browserTokens(uniqueEmail("self"))
    const error = await run(
      Users.deleteCurrent().pipe(Effect.flip),
      Stack.layerClient({ ...credentials(), tokenStore: TokenStore.layerMemory(tokens) })
    )
    expect(error._tag).toBe("ClientUserDeletionNotEnabled")
  })
})
