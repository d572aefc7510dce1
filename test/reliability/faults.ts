/**
 * The fault matrix, described once and played by two servers (msw and a raw socket): each fault is
 * a list of replies, one per attempt, and the outcome expected for an idempotent (GET) and a
 * non-idempotent (POST) call.
 *
 * Retry rules under test (PROTOCOL.md §1.6, `src/core/Schedules.ts`): 429 and 508-with-marker are
 * retried for every method (the service did not process the request); network failures (no
 * answer: a reset before the status line) are retried only for idempotent methods; nothing else
 * is retried. An answer whose body is cut short after its status and headers arrived is not a
 * network failure: the service answered (and may have acted), so it is an `InvalidResponse`
 * after one request (issue 25 item 3). At most 5 attempts.
 */
import { Effect, Layer, Option } from "effect"
import * as Password from "../../src/auth/Password.js"
import type { ServerAccess } from "../../src/core/Access.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Users from "../../src/users/Users.js"
import type * as RetryPolicy from "../../src/core/RetryPolicy.js"
import { accessToken, projectId, publishableClientKey, refreshTokenText, secretServerKey, tokens, userBody } from "../support/fixtures.js"

/** One reply of the server to one attempt. */
export type Reply =
  /** the call's normal success answer */
  | { readonly _tag: "Ok" }
  /** the call's normal success body under another content type */
  | { readonly _tag: "OkAs"; readonly contentType: string }
  | { readonly _tag: "Http"; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string }
  /** the connection is reset before any byte of the answer */
  | { readonly _tag: "ResetBeforeResponse" }
  /** status line, headers and part of the body, then a reset */
  | { readonly _tag: "ResetMidBody"; readonly status: number; readonly partial: string; readonly declaredLength: number }
  /** status line, headers and part of the body, then a clean close (FIN) short of content-length */
  | { readonly _tag: "CloseMidBody"; readonly status: number; readonly partial: string; readonly declaredLength: number }

/** What a call must end in, and how many requests the server must have seen. */
export interface Expectation {
  /** `"Success"` or the tag of the typed error. */
  readonly outcome: string
  readonly requests: number
}

/** A fault: the replies (the last one repeats) and the expected outcomes. */
export interface Fault {
  readonly name: string
  readonly replies: ReadonlyArray<Reply>
  readonly idempotent: Expectation
  readonly nonIdempotent: Expectation
  /** Socket-only (msw cannot express it) or msw-only faults. */
  readonly only?: "socket" | "msw"
}

const json = { "content-type": "application/json; charset=utf-8" }
const text = { "content-type": "text/plain; charset=utf-8" }
const html = { "content-type": "text/html; charset=utf-8" }
/** A 4xx under `x-stack-override-error-status`: 200 with the real status in a header. */
const overridden = (status: number, headers: Readonly<Record<string, string>>) => ({ ...headers, "x-stack-actual-status": String(status) })

const http = (status: number, headers: Readonly<Record<string, string>>, body: string): Reply => ({ _tag: "Http", status, headers, body })
const ok: Reply = { _tag: "Ok" }
const tooMany = (retryAfter?: string): Reply =>
  http(200, overridden(429, { ...text, ...(retryAfter === undefined ? {} : { "retry-after": retryAfter }) }), "Too many requests")
const loop = http(508, text, "INFINITE_LOOP_DETECTED: the request looped through the platform")
const resetBefore: Reply = { _tag: "ResetBeforeResponse" }
const resetMid: Reply = { _tag: "ResetMidBody", status: 200, partial: "{\"id\":\"2b0b8f0e-3c1e", declaredLength: 2000 }
const closeMid: Reply = { _tag: "CloseMidBody", status: 200, partial: "{\"id\":\"2b0b8f0e-3c1e", declaredLength: 2000 }

const both = (outcome: string, requests: number) => ({ idempotent: { outcome, requests }, nonIdempotent: { outcome, requests } })
/** Network failure: the idempotent call is retried, the non-idempotent one is sent once. */
const network = (idempotent: Expectation) => ({ idempotent, nonIdempotent: { outcome: "ConnectivityError", requests: 1 } })

/** Every fault of the matrix (issue 7, "Fault matrix"). */
export const faults: ReadonlyArray<Fault> = [
  { name: "429 with Retry-After, then success", replies: [tooMany("2"), ok], ...both("Success", 2) },
  { name: "429 without Retry-After, then success", replies: [tooMany(), ok], ...both("Success", 2) },
  { name: "429 with a malformed Retry-After (ignored), then success", replies: [tooMany("soon"), ok], ...both("Success", 2) },
  {
    name: "429 sent as a plain 429 (no override), then success",
    replies: [http(429, { ...text, "retry-after": "1" }, "slow down"), ok],
    ...both("Success", 2)
  },
  { name: "429 storm that ends on the 5th attempt", replies: [tooMany("1"), tooMany(), tooMany("1"), tooMany(), ok], ...both("Success", 5) },
  { name: "429 storm that never ends", replies: [tooMany("1")], ...both("RateLimited", 5) },
  { name: "429 storm without Retry-After", replies: [tooMany()], ...both("RateLimited", 5) },
  { name: "508 with the loop marker, then success", replies: [loop, ok], ...both("Success", 2) },
  { name: "508 with the loop marker every time", replies: [loop], ...both("HttpError", 5) },
  { name: "508 without the marker", replies: [http(508, text, "Loop Detected")], ...both("HttpError", 1) },
  {
    name: "500 plain text",
    replies: [http(500, text, "Something went wrong. Please make sure the data you entered is correct.\n\nRequest ID: x")],
    ...both("HttpError", 1)
  },
  { name: "502 HTML error page", replies: [http(502, html, "<html><body><h1>502 Bad Gateway</h1></body></html>")], ...both("HttpError", 1) },
  { name: "503 with an empty body", replies: [http(503, {}, "")], ...both("HttpError", 1) },
  { name: "connection reset before the answer, then success", replies: [resetBefore, ok], ...network({ outcome: "Success", requests: 2 }) },
  { name: "connection reset before the answer, every time", replies: [resetBefore], ...network({ outcome: "ConnectivityError", requests: 5 }) },
  { name: "connection reset mid-body (the answer arrived, cut short): not retried", replies: [resetMid, ok], ...both("InvalidResponse", 1) },
  { name: "connection reset mid-body, every time", replies: [resetMid], ...both("InvalidResponse", 1) },
  { name: "connection closed short of content-length: not retried", replies: [closeMid, ok], ...both("InvalidResponse", 1), only: "socket" },
  {
    name: "truncated JSON (complete answer)",
    replies: [http(200, json, "{\"id\":\"2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11\",\"display_na")],
    ...both("InvalidResponse", 1)
  },
  { name: "HTML page with status 200", replies: [http(200, html, "<!doctype html><title>Maintenance</title>")], ...both("InvalidResponse", 1) },
  { name: "empty body with status 200", replies: [http(200, json, "")], ...both("InvalidResponse", 1) },
  { name: "JSON of the wrong shape", replies: [http(200, json, "{\"items\":[],\"is_paginated\":false}")], ...both("InvalidResponse", 1) },
  {
    name: "wrong content type (text/plain) on a valid JSON body: accepted",
    replies: [{ _tag: "OkAs", contentType: "text/plain; charset=utf-8" }],
    ...both("Success", 1)
  },
  { name: "wrong content type, body not JSON", replies: [http(200, { "content-type": "application/xml" }, "<user id='1'/>")], ...both("InvalidResponse", 1) },
  {
    name: "known-error header without a body code",
    replies: [http(200, overridden(404, { ...json, "x-stack-known-error": "USER_NOT_FOUND" }), "{\"error\":\"User not found.\"}")],
    ...both("InvalidResponse", 1)
  },
  {
    name: "known-error header with a non-JSON body",
    replies: [http(200, overridden(400, { ...text, "x-stack-known-error": "SCHEMA_ERROR" }), "Request validation failed")],
    ...both("InvalidResponse", 1)
  },
  {
    name: "known-error header and body code disagree",
    replies: [
      http(200, overridden(400, { ...json, "x-stack-known-error": "USER_NOT_FOUND" }), "{\"code\":\"SCHEMA_ERROR\",\"error\":\"Request validation failed\"}")
    ],
    ...both("InvalidResponse", 1)
  },
  {
    name: "unknown known-error code",
    replies: [
      http(
        200,
        overridden(409, { ...json, "x-stack-known-error": "BRAND_NEW_ERROR" }),
        "{\"code\":\"BRAND_NEW_ERROR\",\"error\":\"Something new.\",\"details\":{\"a\":1}}"
      )
    ],
    ...both("UnsupportedKnownError", 1)
  },
  {
    name: "known error with details of the wrong shape",
    replies: [
      http(
        200,
        overridden(400, { ...json, "x-stack-known-error": "SCHEMA_ERROR" }),
        "{\"code\":\"SCHEMA_ERROR\",\"error\":\"bad\",\"details\":{\"message\":42}}"
      )
    ],
    ...both("InvalidResponse", 1)
  },
  {
    name: "a malformed x-stack-actual-status on a plain-text answer",
    replies: [http(200, { ...text, "x-stack-actual-status": "4o4" }, "not found")],
    ...both("InvalidResponse", 1)
  }
]

/** The user a server call answers with (a recorded server view). */
export const serverUserBody = {
  id: "058ad051-10a9-4f28-9a0c-dcf0cb77fe6c",
  primary_email: "srv@example.com",
  primary_email_verified: true,
  primary_email_auth_enabled: true,
  display_name: "Server Created",
  selected_team: null,
  selected_team_id: null,
  profile_image_url: null,
  signed_up_at_millis: 1795317613837,
  has_password: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  client_metadata: { a: 1 },
  client_read_only_metadata: null,
  server_metadata: { plan: "free" },
  last_active_at_millis: 1795317613843,
  is_anonymous: false,
  is_restricted: false,
  restricted_reason: null,
  restricted_by_admin: false,
  restricted_by_admin_reason: null,
  restricted_by_admin_private_details: null,
  country_code: null,
  risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } },
  requires_totp_mfa: false,
  auth_with_email: true,
  oauth_providers: []
}

/** The signed-in session of client calls. */
export const signedInAccessToken = accessToken(4_000_000_000)
export const signedIn = tokens(signedInAccessToken, refreshTokenText)
/** Tokens a sign-in answer carries. */
export const newAccessToken = accessToken(4_000_000_001, "user-2")
export const newRefreshToken = "refreshtoken1111111111111111111111111111111111"

/** Token, key and password texts the calls carry: none may appear in an error. */
export const secretTexts: ReadonlyArray<string> = [
  signedInAccessToken,
  refreshTokenText,
  newAccessToken,
  newRefreshToken,
  publishableClientKey,
  secretServerKey,
  "correct horse battery"
]

/** An SDK call under test. */
export interface CallUnderTest {
  readonly name: string
  readonly method: "GET" | "POST"
  readonly path: string
  readonly idempotent: boolean
  readonly okStatus: number
  readonly okBody: unknown
  readonly run: Effect.Effect<unknown, unknown, Stack.ClientServices | ServerAccess>
  readonly access: "client" | "server"
}

/** The four calls: client GET / POST, server GET / POST. */
export const calls: ReadonlyArray<CallUnderTest> = [
  {
    name: "Users.getCurrent (client GET /users/me)",
    method: "GET",
    path: "/api/v1/users/me",
    idempotent: true,
    okStatus: 200,
    okBody: userBody,
    access: "client",
    run: Effect.flatMap(Users.getCurrent(), (user) => (Option.isSome(user) ? Effect.void : Effect.die(new Error("no user"))))
  },
  {
    name: "Password.signInWithPassword (client POST /auth/password/sign-in)",
    method: "POST",
    path: "/api/v1/auth/password/sign-in",
    idempotent: false,
    okStatus: 200,
    okBody: { access_token: newAccessToken, refresh_token: newRefreshToken, user_id: "2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11" },
    access: "client",
    run: Password.signInWithPassword({ email: "ada@example.com", password: "correct horse battery" })
  },
  {
    name: "ServerUsers.getById (server GET /users/:user_id)",
    method: "GET",
    path: `/api/v1/users/${serverUserBody.id}`,
    idempotent: true,
    okStatus: 200,
    okBody: serverUserBody,
    access: "server",
    run: ServerUsers.getById(serverUserBody.id)
  },
  {
    name: "ServerUsers.create (server POST /users)",
    method: "POST",
    path: "/api/v1/users",
    idempotent: false,
    okStatus: 201,
    okBody: serverUserBody,
    access: "server",
    run: ServerUsers.create({ primaryEmail: "srv@example.com", primaryEmailAuthEnabled: true })
  }
]

/** Client + server services against `baseUrl`, with the signed-in session and the given retry policy. */
export const layerFor = (baseUrl: string, retryPolicy?: Layer.Layer<RetryPolicy.RetryPolicy>) =>
  Stack.layerServer({
    projectId,
    baseUrl,
    publishableClientKey,
    secretServerKey,
    tokenStore: TokenStore.layerMemory(signedIn),
    ...(retryPolicy === undefined ? {} : { retryPolicy })
  }).pipe(Layer.orDie)
