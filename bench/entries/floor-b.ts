/**
 * Floor of bundle entry (b): the floor of (a) plus password sign-in and sign-up, list and create
 * teams, update the user (each a request with a `Schema`-decoded answer, the tokens of a sign-in
 * stored in the `Ref`).
 */
import * as Effect from "effect/Effect"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schema from "effect/Schema"
import { getCurrentUser, read, runtime, tokens, User } from "./floor/client.js"

const SignedIn = Schema.Struct({ accessToken: Schema.String, refreshToken: Schema.String }).pipe(
  Schema.encodeKeys({ accessToken: "access_token", refreshToken: "refresh_token" })
)
const Team = Schema.Struct({
  id: Schema.String,
  displayName: Schema.String,
  profileImageUrl: Schema.NullOr(Schema.String)
}).pipe(Schema.encodeKeys({ displayName: "display_name", profileImageUrl: "profile_image_url" }))
const Teams = Schema.Struct({ items: Schema.Array(Team) })

const signInWith = (path: string, email: string, password: string) =>
  Effect.flatMap(
    read(HttpClientRequest.post(path).pipe(HttpClientRequest.bodyJsonUnsafe({ email, password })), SignedIn),
    (signed) => Ref.set(tokens, { access: Option.some(signed.accessToken), refresh: Option.some(signed.refreshToken) })
  )

export { getCurrentUser }
export const signIn = (email: string, password: string) => runtime.runPromise(signInWith("/auth/password/sign-in", email, password))
export const signUp = (email: string, password: string) => runtime.runPromise(signInWith("/auth/password/sign-up", email, password))
export const listTeams = () => runtime.runPromise(read(HttpClientRequest.get("/teams?user_id=me"), Teams))
export const createTeam = (displayName: string) =>
  runtime.runPromise(read(HttpClientRequest.post("/teams").pipe(HttpClientRequest.bodyJsonUnsafe({ display_name: displayName })), Team))
export const rename = (displayName: string) =>
  runtime.runPromise(read(HttpClientRequest.patch("/users/me").pipe(HttpClientRequest.bodyJsonUnsafe({ display_name: displayName })), User))
