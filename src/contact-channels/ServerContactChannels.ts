/**
 * The contact channels of any user, by user id (PROTOCOL.md §3.2), with server access: the same
 * calls as `ContactChannels` (the signed-in user's, client access), each taking the user's id first.
 * Channels may be created or marked verified here. The plain-text answers are typed as in
 * `ContactChannels` (`ContactChannelNotFound`, `ContactChannelAlreadyExists`).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { callbackUrl } from "../core/HandlerUrls.js"
import * as ContactChannels from "./ContactChannels.js"
import {
  createForUserEndpoint,
  deleteForUserEndpoint,
  listForUserEndpoint,
  sendVerificationCodeForUserEndpoint,
  updateForUserEndpoint
} from "./internal/contactChannels.js"

/** A new channel of a user (server access). */
export interface CreateInput extends ContactChannels.CreateInput {
  /** Create it already verified. */
  readonly isVerified?: boolean
}

/** Changes to a channel of a user (server access). */
export interface UpdateInput extends ContactChannels.UpdateInput {
  readonly isVerified?: boolean
}

/**
 * A user's contact channels. `GET /contact-channels?user_id=<id>`; needs server access.
 * Fails with `UserIdDoesNotExist`.
 */
export const list = Effect.fn("ServerContactChannels.list")(function* (userId: string) {
  const answer = yield* Endpoint.call(listForUserEndpoint, { query: { userId } })
  return answer.items
})

/**
 * Adds an e-mail contact channel to a user, possibly already verified. `POST /contact-channels`
 * (201); needs server access. Fails with `UserIdDoesNotExist`,
 * `ContactChannelAlreadyUsedForAuthBySomeoneElse`, or {@link ContactChannels.ContactChannelAlreadyExists}.
 */
export const create = Effect.fn("ServerContactChannels.create")(function* (
  userId: string,
  input: CreateInput
) {
  return yield* ContactChannels.mapTextErrors(
    Endpoint.call(createForUserEndpoint, {
      payload: {
        userId,
        type: "email",
        value: input.value,
        usedForAuth: input.usedForAuth,
        ...(input.isPrimary === undefined ? {} : { isPrimary: input.isPrimary }),
        ...(input.isVerified === undefined ? {} : { isVerified: input.isVerified })
      }
    })
  )
})

/**
 * Changes a channel of a user. `PATCH /contact-channels/{user_id}/{id}`; needs server access.
 * Fails with {@link ContactChannels.ContactChannelNotFound}, `UserIdDoesNotExist`, or
 * `ContactChannelAlreadyUsedForAuthBySomeoneElse`.
 */
export const update = Effect.fn("ServerContactChannels.update")(function* (
  userId: string,
  id: string,
  changes: UpdateInput
) {
  return yield* ContactChannels.mapTextErrors(
    Endpoint.call(updateForUserEndpoint, { params: { userId, contactChannelId: id }, payload: changes })
  )
})

/**
 * Removes a channel of a user. `DELETE /contact-channels/{user_id}/{id}`; needs server access.
 * Fails with {@link ContactChannels.ContactChannelNotFound} or `UserIdDoesNotExist`.
 */
const deleteChannel = Effect.fn("ServerContactChannels.delete")(function* (userId: string, id: string) {
  yield* ContactChannels.mapNotFound(Endpoint.call(deleteForUserEndpoint, { params: { userId, contactChannelId: id } }))
})

/**
 * E-mails a verification link for a channel of a user.
 * `POST /contact-channels/{user_id}/{id}/send-verification-code`; needs server access.
 * `callbackUrl` defaults to the `emailVerification` handler page. Fails with
 * `EmailAlreadyVerified`, `UserIdDoesNotExist`, `RedirectUrlNotWhitelisted`, or
 * {@link ContactChannels.ContactChannelNotFound}.
 */
export const sendVerificationCode = Effect.fn("ServerContactChannels.sendVerificationCode")(function* (
  userId: string,
  id: string,
  options: ContactChannels.SendCodeOptions = {}
) {
  const url = yield* callbackUrl("emailVerification", "callbackUrl", options.callbackUrl)
  yield* ContactChannels.mapNotFound(
    Endpoint.call(sendVerificationCodeForUserEndpoint, {
      params: { userId, contactChannelId: id },
      payload: { callbackUrl: url }
    })
  )
})

/**
 * Removes a channel of a user. `DELETE /contact-channels/{user_id}/{id}`; needs server access.
 * Fails with {@link ContactChannels.ContactChannelNotFound} or `UserIdDoesNotExist`.
 */
export { deleteChannel as delete }
