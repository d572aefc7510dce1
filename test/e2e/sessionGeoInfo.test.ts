/**
 * End to end over real HTTP against the emulator server: session geo information. A browser's
 * sign-in through a proxy (user agent and proxy headers sent as such a request carries them)
 * is listed by the SDK with its IP and place; the SDK's own sign-in from Node (127.0.0.1, no
 * proxy headers) lists none, as the service does.
 */
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import { useServer } from "./support.js"

const main = useServer()

const credentials = main.credentials

const uniqueEmail = (label: string) => `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

describe("session geo information over HTTP", () => {
  it("a browser's sign-in through a proxy lists its IP and place; a direct Node sign-in lists none", async () => {
    const response = await fetch(`${main.server.baseUrl}/api/v1/auth/password/sign-up`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-stack-project-id": credentials().projectId,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": credentials().publishableClientKey,
        "user-agent": "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
        "x-forwarded-for": "198.51.100.23",
        "x-vercel-ip-country": "JP",
        "x-vercel-ip-city": "Tokyo",
        "x-vercel-ip-timezone": "Asia/Tokyo"
      },
      body: JSON.stringify({ email: uniqueEmail("geo"), password: "correct horse battery" })
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as { access_token: string; refresh_token: string }
    const browserSessions = await Effect.runPromise(
      Sessions.list().pipe(
        Effect.provide(
          Stack.layerClient({ ...credentials(), tokenStore: TokenStore.layerMemory(TokenStore.fromStrings(body.access_token, body.refresh_token)) })
        )
      )
    )
    expect(browserSessions.map((session) => session.geoInfo)).toEqual([
      { ip: "198.51.100.23", countryCode: "JP", cityName: "Tokyo", tzIdentifier: "Asia/Tokyo" }
    ])

    const nodeSessions = await Effect.runPromise(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email: uniqueEmail("direct"), password: "correct horse battery", noVerificationCallback: true })
        return yield* Sessions.list()
      }).pipe(Effect.provide(Stack.layerClient({ ...credentials(), tokenStore: TokenStore.layerMemory(TokenStore.empty) })))
    )
    expect(nodeSessions.length).toBe(1)
    expect(nodeSessions[0]?.geoInfo).toBeUndefined()
  })
})
