/**
 * End to end over real HTTP against the emulator server: `ServerUsers.getUser({ or })`, the
 * official server app's `getUser` policies answered with the server view, for the session of a
 * backend and for the session of an incoming request.
 */
import { Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as RequestTokenStore from "../../src/session/RequestTokenStore.js"
import * as SessionModule from "../../src/session/Session.js"
import { Session } from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const credentials = main.credentials

/** A backend with server access over fetch, its own memory session, counting its requests. */
const backend = (tokens: TokenStore.StoredTokens = TokenStore.empty) => {
  const fetch = countingFetch()
  const layer = Stack.layerServer({
    ...credentials(),
    secretServerKey: main.server.emulator.demo.secretServerKey,
    httpClient: fetch.layer,
    tokenStore: TokenStore.layerMemory(tokens)
  })
  return { layer, count: fetch.count }
}

const run = <A, E, R>(effect: Effect.Effect<A, E, R>, layer: Layer.Layer<R, unknown>) =>
  Effect.runPromise(effect.pipe(Effect.provide(layer)) as Effect.Effect<A, unknown>)

const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

describe("ServerUsers.getUser over HTTP", () => {
  it("signed out: return-null is none without a request, throw is UserNotSignedIn, anonymous signs up once", async () => {
    const { layer, count } = backend()
    const program = Effect.gen(function* () {
      const none = yield* ServerUsers.getUser()
      const thrown = yield* Effect.flip(ServerUsers.getUser({ or: "throw" }))
      const anonymous = yield* ServerUsers.getUser({ or: "anonymous" })
      const again = yield* ServerUsers.getUser({ or: "anonymous-if-exists" })
      const regular = yield* ServerUsers.getUser()
      return { none, thrown, anonymous, again, regular }
    })
    const result = await run(program, layer)
    expect(result.none).toEqual(Option.none())
    expect(result.thrown._tag).toBe("UserNotSignedIn")
    expect(result.anonymous.isAnonymous).toBe(true)
    expect(Option.map(result.again, (user) => user.id)).toEqual(Option.some(result.anonymous.id))
    // an anonymous user counts as signed out for the default policy
    expect(result.regular).toEqual(Option.none())
    expect(count("POST /auth/anonymous/sign-up")).toBe(1)
    expect(count("GET /users/me")).toBe(3)
  })

  it("the session of an incoming request: throw answers the request's user, server view", async () => {
    const email = uniqueEmail("server-get-user")
    const tokens = await run(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
        return yield* Effect.flatMap(Session, (session) => session.current)
      }),
      Stack.layerClient({ ...credentials(), tokenStore: TokenStore.layerMemory(TokenStore.empty) })
    )
    const { layer, count } = backend()
    const request = new Request("http://app.test/api", { headers: RequestTokenStore.authHeaders(tokens) })
    const user = await run(
      Effect.gen(function* () {
        const requestTokens = yield* RequestTokenStore.readRequestTokens(request, { projectId: main.server.emulator.demo.projectId })
        const session = yield* SessionModule.makeForRequest(requestTokens)
        return yield* ServerUsers.getUser({ or: "throw" }).pipe(Effect.provideService(Session, session))
      }),
      layer
    )
    expect(user.primaryEmail).toBe(email)
    expect(user.lastActiveAt instanceof Date).toBe(true)
    expect(count("GET /users/me")).toBe(1)
  })
})
