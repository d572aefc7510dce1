/**
 * The `Authorization: Bearer stackauth_…` hand-over end to end over real HTTP against the
 * emulator server (issue 15, official `getAuthorizationHeader()` and reading incoming
 * `Authorization` requests): a browser's `Tokens.getAuthorizationHeader()` is read by the app
 * server's `ServerUsers.fromRequest` and `RequestAuth.authenticate` (one `GET /users/me` each).
 * Where the bench's dependencies are installed, the official `@stackframe/js` reads ours and we
 * read the official SDK's.
 */
import { Effect, Layer, Option } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Tokens from "../../src/auth/Tokens.js"
import { RequestAuth } from "../../src/server/index.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { countingFetch, useServer } from "./support.js"

const officialEntry = join(import.meta.dirname, "../../bench/node_modules/@stackframe/js/dist/esm/index.js")
/** Whether the bench's dependencies (the official SDK) are installed. */
const officialInstalled = existsSync(officialEntry)

const main = useServer({ passwordHashIterations: 1000 })

const credentials = main.credentials

const serverLayer = () => {
  const fetch = countingFetch()
  const layer = Stack.layerServer({ ...credentials(), secretServerKey: main.server.emulator.demo.secretServerKey, httpClient: fetch.layer })
  return { layer, count: fetch.count }
}

const run = <A, E, R>(effect: Effect.Effect<A, E, R>, layer: Layer.Layer<R, unknown>) =>
  Effect.runPromise(effect.pipe(Effect.provide(layer)) as Effect.Effect<A, unknown>)

const uniqueEmail = (label: string) => `e2e-authz-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** A browser signs up and hands its tokens over as an Authorization value. */
const browserAuthorization = (email: string) =>
  run(
    Effect.gen(function* () {
      const { userId } = yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
      const authorization = yield* Tokens.getAuthorizationHeader()
      return { userId, authorization: Option.getOrThrow(authorization) }
    }),
    Stack.layerClient({ ...credentials(), tokenStore: "memory" })
  )

describe("the Authorization hand-over over HTTP", () => {
  it("a browser's getAuthorizationHeader() is the signed-in user on the app server (fromRequest and RequestAuth), one GET /users/me each", async () => {
    const email = uniqueEmail("ours")
    const { userId, authorization } = await browserAuthorization(email)
    expect(authorization).toMatch(/^Bearer stackauth_[A-Za-z0-9+/]+=*$/)
    const { layer, count } = serverLayer()
    const request = new Request("http://app.test/api", { headers: { authorization } })
    const user = await run(ServerUsers.fromRequest(request, { projectId: credentials().projectId }), layer)
    expect(Option.map(user, (found) => found.id)).toEqual(Option.some(userId))
    expect(count("GET /users/me")).toBe(1)
    const authenticated = await run(RequestAuth.authenticate(request, { projectId: credentials().projectId }), layer)
    expect(authenticated.primaryEmail).toBe(email)
    expect(count("GET /users/me")).toBe(2)
  })

  it("signed out, getAuthorizationHeader() is none", async () => {
    const none = await run(Tokens.getAuthorizationHeader(), Stack.layerClient({ ...credentials(), tokenStore: "memory" }))
    expect(Option.isNone(none)).toBe(true)
  })

  it.skipIf(!officialInstalled)("the official SDK reads ours, and we read the official SDK's (bench dependencies installed)", async () => {
    const official = (await import(pathToFileURL(officialEntry).href)) as {
      readonly StackClientApp: new(options: Record<string, unknown>) => any
      readonly StackServerApp: new(options: Record<string, unknown>) => any
    }
    const keys = { ...credentials(), tokenStore: "memory", noAutomaticPrefetch: true }
    const serverApp = new official.StackServerApp({ ...keys, secretServerKey: main.server.emulator.demo.secretServerKey })

    const ours = await browserAuthorization(uniqueEmail("read-by-official"))
    const seenByOfficial = await serverApp.getUser({ tokenStore: { headers: new Headers({ authorization: ours.authorization }) } })
    expect(seenByOfficial?.id).toBe(ours.userId)

    const clientApp = new official.StackClientApp(keys)
    const email = uniqueEmail("written-by-official")
    const signedUp = await clientApp.signUpWithCredential({ email, password: "correct horse battery", noRedirect: true, noVerificationCallback: true })
    expect(signedUp.status).toBe("ok")
    const officialAuthorization: string | null = await clientApp.getAuthorizationHeader()
    expect(officialAuthorization).not.toBeNull()
    const { layer } = serverLayer()
    const user = await run(
      ServerUsers.fromRequest(new Request("http://app.test/api", { headers: { authorization: officialAuthorization! } }), {
        projectId: credentials().projectId
      }),
      layer
    )
    expect(Option.map(user, (found) => found.primaryEmail)).toEqual(Option.some(email))
  })
})
