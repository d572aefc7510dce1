/**
 * msw answers for the session tests: the refresh grant and `GET /users/me`, each recording what
 * the SDK sent, plus token and known-error bodies.
 */
import { http, HttpResponse } from "msw"
import type { JsonBodyType } from "msw"
import type { SetupServer } from "msw/node"
import { accessToken, apiUrl, userBody } from "../support/fixtures.js"

/** A JSON answer. */
export const json = (body: JsonBodyType) => HttpResponse.json(body)

/** A known-error answer as the service sends it. */
export const knownError = (code: string, status: number, message: string) =>
  HttpResponse.json({ code, error: message }, { status, headers: { "x-stack-known-error": code } })

/** An access token far from expiry (the test clock starts at 0). */
export const freshAccess = accessToken(10_000)

/** A refresh-grant answer. */
export const tokenResponse = (access = freshAccess, extra: Record<string, JsonBodyType> = {}) =>
  json({ access_token: access, token_type: "Bearer", expires_in: 3599, scope: "legacy", after_callback_redirect_url: null, ...extra })

/** Endpoints on a test file's msw server. */
export const sessionMocks = (server: SetupServer) => ({
  /** Counts refresh-grant requests and answers them with `answer`. */
  refreshEndpoint: (answer: () => Response | Promise<Response>) => {
    const seen: Array<URLSearchParams> = []
    server.use(
      http.post(`${apiUrl}/auth/oauth/token`, async ({ request }) => {
        seen.push(new URLSearchParams(await request.text()))
        return answer()
      })
    )
    return seen
  },
  /** Answers /users/me, recording the access token of each request. */
  meEndpoint: (answer: (accessToken: string | null) => Response = () => json(userBody)) => {
    const seen: Array<string | null> = []
    server.use(
      http.get(`${apiUrl}/users/me`, ({ request }) => {
        const token = request.headers.get("x-stack-access-token")
        seen.push(token)
        return answer(token)
      })
    )
    return seen
  }
})

/** A promise the test releases: an answer waits on it. */
export const gate = () => {
  let open: () => void = () => {}
  const promise = new Promise<void>((resolve) => (open = resolve))
  return { promise, open: () => open() }
}
