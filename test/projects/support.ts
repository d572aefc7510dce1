/**
 * Support for the project tests: the SDK layers of a project on an in-process emulator, an
 * `HttpClient` that counts requests, and admin access from a session signed in on `internal`.
 */
import * as HttpClient from "effect/http/HttpClient"
import { Context, Effect, Layer, Option } from "effect"
import * as Access from "../../src/core/Access.js"
import { UserNotSignedIn } from "../../src/core/Errors.js"
import { defaults } from "../../src/emulator/Defaults.js"
import { Password, Stack } from "../../src/index.js"
import * as Session from "../../src/session/Session.js"

/** The emulator's HttpClient, counting every request (shared with the other suites). */
export { countingClient } from "../support/countingClient.js"

/** The access token of a session as an admin access token source (signed out → UserNotSignedIn). */
export const accessTokenOf = (session: Session.SessionShape) =>
  session.requestTokens.pipe(
    Effect.mapError(() => UserNotSignedIn.make()),
    Effect.flatMap((tokens) => Option.match(tokens.accessToken, { onNone: () => Effect.fail(UserNotSignedIn.make()), onSome: Effect.succeed }))
  )

/**
 * Signs the seeded owner in on the `internal` project (in the given scope) and returns the built
 * client services of `internal`.
 */
export const ownerOnInternal = (httpClient: Layer.Layer<HttpClient.HttpClient>) =>
  Effect.gen(function* () {
    const context = yield* Layer.build(Stack.layerClient({ projectId: "internal", httpClient }))
    yield* Password.signInWithPassword({ email: defaults.internalOwner.email, password: defaults.internalOwner.password }).pipe(
      Effect.provide(context)
    )
    return context
  })

/** Admin access to `projectId` with the admin access token of the internal session in `internal`. */
export const adminViaToken = (
  projectId: string,
  internal: Context.Context<Session.Session>,
  httpClient: Layer.Layer<HttpClient.HttpClient>
) => Layer.merge(Stack.layerClient({ projectId, httpClient }), Access.layerAdminAccessToken(accessTokenOf(Context.get(internal, Session.Session))))
