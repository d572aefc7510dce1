/**
 * Contact channels (PROTOCOL.md §3.2): the e-mail addresses of a user besides (and including) the
 * primary one. The signed-in user manages its own channels here, with client access (`me`); with
 * server access any user's channels are managed by user id in `ServerContactChannels`.
 *
 * A user has at most one primary channel (its `primary_email`); making a channel primary demotes
 * the old one. A channel `usedForAuth` signs in with its e-mail, so its value may be used for
 * authentication by one user only (`ContactChannelAlreadyUsedForAuthBySomeoneElse`).
 *
 * The service answers "not found" and "already exists" with plain text; this module turns those
 * answers into {@link ContactChannelNotFound} and {@link ContactChannelAlreadyExists}.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as EmailVerification from "../auth/EmailVerification.js"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import { createEndpoint, deleteEndpoint, listEndpoint, sendVerificationCodeEndpoint, updateEndpoint } from "./internal/contactChannels.js"

/** The domain's schemas, defined with its wire definitions (`internal/contactChannels.ts`). */
export { ContactChannel } from "./internal/contactChannels.js"

// ---------------------------------------------------------------------------------------------
// Plain-text errors
// ---------------------------------------------------------------------------------------------

/** The contact channel does not exist (or is not the user's): the service's 400/404 text "Contact channel not found". */
export class ContactChannelNotFound extends Data.TaggedError("ContactChannelNotFound")<{
  readonly message: string
  readonly status: number
}> {}

/** The user already has a channel with this value: the service's 400 text "Contact channel already exists". */
export class ContactChannelAlreadyExists extends Data.TaggedError("ContactChannelAlreadyExists")<{
  readonly message: string
}> {}

const notFoundPrefix = "Contact channel not found"
const alreadyExistsPrefix = "Contact channel already exists"

/** The typed error for a plain-text `HttpError` about a channel, if it is one. */
const fromText = (error: HttpError): ContactChannelNotFound | ContactChannelAlreadyExists | undefined => {
  const text = error.body.trim()
  if ((error.status === 400 || error.status === 404) && text.startsWith(notFoundPrefix)) {
    return new ContactChannelNotFound({ message: text, status: error.status })
  }
  if (error.status === 400 && text.startsWith(alreadyExistsPrefix)) return new ContactChannelAlreadyExists({ message: text })
  return undefined
}

/**
 * Turns the service's plain-text answers about contact channels into typed errors
 * ({@link ContactChannelNotFound} for 400/404 "Contact channel not found…",
 * {@link ContactChannelAlreadyExists} for 400 "Contact channel already exists"); any other
 * `HttpError` stays as it is. For calls that create or rename a channel.
 */
export const mapTextErrors = <A, E, R>(
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, E | ContactChannelNotFound | ContactChannelAlreadyExists, R> =>
  Effect.mapError(effect, (error): E | ContactChannelNotFound | ContactChannelAlreadyExists => error instanceof HttpError ? (fromText(error) ?? error) : error)

/**
 * Turns the service's plain-text "Contact channel not found…" (400/404) into
 * {@link ContactChannelNotFound}; any other `HttpError` stays as it is. For calls on an existing channel.
 */
export const mapNotFound = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | ContactChannelNotFound, R> =>
  Effect.mapError(effect, (error): E | ContactChannelNotFound => {
    if (!(error instanceof HttpError)) return error
    const typed = fromText(error)
    return typed instanceof ContactChannelNotFound ? typed : error
  })

// ---------------------------------------------------------------------------------------------
// Client functions (the signed-in user)
// ---------------------------------------------------------------------------------------------

/** A new channel of the signed-in user. */
export interface CreateInput {
  /** The e-mail address. */
  readonly value: string
  /** Whether the e-mail signs in (must not be used for auth by another user). */
  readonly usedForAuth: boolean
  /** Make it the primary e-mail (demotes the current primary channel). */
  readonly isPrimary?: boolean
}

/** Changes to a channel; absent fields stay as they are. */
export interface UpdateInput {
  readonly value?: string
  readonly usedForAuth?: boolean
  /** `true` makes it the primary e-mail (demotes the current primary channel). */
  readonly isPrimary?: boolean
}

/** Options of sending a verification code. */
export interface SendCodeOptions {
  /** Page the e-mailed link opens; defaults to the `emailVerification` handler page. */
  readonly callbackUrl?: string | URL
}

/** The cache key of the signed-in user's channels (see `QueryCache`). */
export const cacheKey: QueryCache.Key = ["contact-channels", "me"]

// what a change of a channel may change: the list, and the user's primary e-mail / verified flag
const invalidatesChannels = QueryCache.invalidating(["contact-channels"], ["user"])

/**
 * The signed-in user's contact channels. `GET /contact-channels?user_id=me`, through the query
 * cache (key {@link cacheKey}). Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const list = Effect.fn("ContactChannels.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(listEndpoint, { query: { userId: "me" } }))
  return answer.items
})

/**
 * Adds an e-mail contact channel to the signed-in user. `POST /contact-channels` (201).
 * Fails with `ContactChannelAlreadyUsedForAuthBySomeoneElse` (another user signs in with this
 * e-mail), {@link ContactChannelAlreadyExists}, or `UserNotSignedIn`.
 */
export const create = Effect.fn("ContactChannels.create")(function* (input: CreateInput) {
  return yield* mapTextErrors(
    Endpoint.call(createEndpoint, {
      payload: {
        userId: "me",
        type: "email",
        value: input.value,
        usedForAuth: input.usedForAuth,
        ...(input.isPrimary === undefined ? {} : { isPrimary: input.isPrimary })
      }
    })
  ).pipe(invalidatesChannels)
})

/**
 * Changes a channel of the signed-in user. `PATCH /contact-channels/me/{id}`.
 * Fails with {@link ContactChannelNotFound}, `ContactChannelAlreadyUsedForAuthBySomeoneElse`,
 * or `UserNotSignedIn`.
 */
export const update = Effect.fn("ContactChannels.update")(function* (id: string, changes: UpdateInput) {
  return yield* mapTextErrors(Endpoint.call(updateEndpoint, { params: { contactChannelId: id }, payload: changes })).pipe(
    invalidatesChannels
  )
})

/**
 * Removes a channel of the signed-in user (its pending verification codes stop working).
 * `DELETE /contact-channels/me/{id}`. Fails with {@link ContactChannelNotFound} or `UserNotSignedIn`.
 */
const delete_ = Effect.fn("ContactChannels.delete")(function* (id: string) {
  yield* mapNotFound(Endpoint.call(deleteEndpoint, { params: { contactChannelId: id } })).pipe(invalidatesChannels)
})
export {
  /**
   * Removes a channel of the signed-in user (its pending verification codes stop working).
   * `DELETE /contact-channels/me/{id}`. Fails with {@link ContactChannelNotFound} or `UserNotSignedIn`.
   */
  delete_ as delete
}

/**
 * E-mails a verification link (`callbackUrl?code=…`) for one channel of the signed-in user.
 * `POST /contact-channels/me/{id}/send-verification-code`. `callbackUrl` defaults to the
 * `emailVerification` handler page (`CallbackUrlRequired` when it cannot be resolved).
 * Fails with `EmailAlreadyVerified`, `RedirectUrlNotWhitelisted`, {@link ContactChannelNotFound},
 * or `UserNotSignedIn`.
 */
export const sendVerificationCode = Effect.fn("ContactChannels.sendVerificationCode")(function* (
  id: string,
  options: SendCodeOptions = {}
) {
  const url = yield* callbackUrl("emailVerification", "callbackUrl", options.callbackUrl)
  yield* mapNotFound(
    Endpoint.call(sendVerificationCodeEndpoint, { params: { contactChannelId: id }, payload: { callbackUrl: url } })
  )
})

/**
 * Verifies the channel a code was e-mailed for (`EmailVerification.verifyEmail`,
 * `POST /contact-channels/verify`). Needs no signed-in user. Fails with a verification-code error,
 * or {@link ContactChannelNotFound} when the channel was deleted after the code was sent.
 */
export const verify = Effect.fn("ContactChannels.verify")(function* (code: string) {
  yield* mapNotFound(EmailVerification.verifyEmail(code)).pipe(invalidatesChannels)
})
