/**
 * The floor of bundle (a): the smallest Effect program doing the job of entry (a) with the same
 * building blocks this SDK is made of (issue 14: "the smallest Effect program doing the same
 * job"). `FetchHttpClient` layer, the tokens in a `Ref`, one GET `/users/me` with the project's
 * headers, a `Schema` decode of the user (renamed wire fields), a refresh on 401 and a retry
 * `Schedule`. No cache, no session rules, no typed known errors: what any Effect client of the
 * service would need at least. Shared by the floor entries (b) and (c).
 */
import * as Effect from "effect/Effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpClientResponse from "effect/http/HttpClientResponse"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"

/** The user as `/users/me` answers it (wire names renamed by `Schema.encodeKeys`). */
export const User = Schema.Struct({
  id: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  primaryEmail: Schema.NullOr(Schema.String),
  primaryEmailVerified: Schema.Boolean,
  profileImageUrl: Schema.NullOr(Schema.String),
  signedUpAt: Schema.DateFromMillis,
  hasPassword: Schema.Boolean,
  selectedTeamId: Schema.NullOr(Schema.String),
  isAnonymous: Schema.Boolean
}).pipe(
  Schema.encodeKeys({
    displayName: "display_name",
    primaryEmail: "primary_email",
    primaryEmailVerified: "primary_email_verified",
    profileImageUrl: "profile_image_url",
    signedUpAt: "signed_up_at_millis",
    hasPassword: "has_password",
    selectedTeamId: "selected_team_id",
    isAnonymous: "is_anonymous"
  })
)

const Refreshed = Schema.Struct({ accessToken: Schema.String }).pipe(Schema.encodeKeys({ accessToken: "access_token" }))

const baseUrl = "https://api.stack-auth.com/api/v1"
const projectId = "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f"

/** The tokens, in a `Ref`. */
export const tokens = Ref.makeUnsafe<{ readonly access: Option.Option<string>; readonly refresh: Option.Option<string> }>({
  access: Option.none(),
  refresh: Option.none()
})

/** One request with the project's headers and the tokens; retried on transport errors. */
export const send = (request: HttpClientRequest.HttpClientRequest) =>
  Effect.gen(function* () {
    const client = yield* HttpClient.HttpClient
    const current = yield* Ref.get(tokens)
    const withHeaders = request.pipe(
      HttpClientRequest.prependUrl(baseUrl),
      HttpClientRequest.setHeaders({
        "x-stack-project-id": projectId,
        "x-stack-access-type": "client",
        "x-stack-publishable-client-key": "pck_bench"
      }),
      Option.isSome(current.access) ? HttpClientRequest.setHeader("x-stack-access-token", current.access.value) : (r) => r
    )
    return yield* client.execute(withHeaders).pipe(Effect.retry({ schedule: Schedule.exponential("200 millis"), times: 3 }))
  })

const refresh = Effect.gen(function* () {
  const current = yield* Ref.get(tokens)
  if (Option.isNone(current.refresh)) return false
  const response = yield* send(
    HttpClientRequest.post("/auth/sessions/current/refresh").pipe(HttpClientRequest.setHeader("x-stack-refresh-token", current.refresh.value))
  )
  const body = yield* HttpClientResponse.schemaBodyJson(Refreshed)(response)
  yield* Ref.update(tokens, (t) => ({ ...t, access: Option.some(body.accessToken) }))
  return true
})

/** A read decoded with `schema`, refreshed once on 401. */
export const read = <A, I>(request: HttpClientRequest.HttpClientRequest, schema: Schema.Codec<A, I>) =>
  Effect.gen(function* () {
    let response = yield* send(request)
    if (response.status === 401 && (yield* refresh)) response = yield* send(request)
    return yield* HttpClientResponse.schemaBodyJson(schema)(response)
  })

/** The runtime: `FetchHttpClient` alone. */
export const runtime = ManagedRuntime.make(FetchHttpClient.layer)

/** The current user. */
export const getCurrentUser = () => runtime.runPromise(read(HttpClientRequest.get("/users/me"), User))
