/**
 * Contact channels (PROTOCOL.md §3.2): list, create, read, update, delete and send a verification
 * code, for the signed-in user (`me` or its own id, client access) and for any user (server
 * access). Verifying a channel's code is `POST /contact-channels/verify` (`verification.ts`, which
 * calls {@link verifyChannelCode} for codes sent here).
 *
 * How channels are stored: the primary channel IS the user's primary e-mail (`primaryEmail`,
 * `primaryEmailVerified`, `primaryEmailAuthEnabled`, id in `primaryChannelId`), so
 * `primary_email` always follows the primary channel and a user has at most one; the other
 * channels are `UserRecord.contactChannels`. Making a channel primary moves the old primary
 * e-mail into the other channels.
 *
 * The definitions served here are emulator-only (wire terms, snake_case): one path
 * `/contact-channels/{user_id|me}/{id}` with client access serves the SDK's client (`me`) and
 * server (`{user_id}`) endpoints alike; what server access may do besides (`is_verified`, any
 * user) is decided by the handlers. A list without `user_id` is, with client access, the service's
 * 403 (`listWithoutUserText`); with server access the service lists every user's channels, which
 * the emulator does not (it keeps its 400 SCHEMA_ERROR).
 *
 * @module
 */
import { Effect, Schema } from "effect"
import { ContactChannel } from "../../contact-channels/internal/contactChannels.js"
import { ContactChannelList } from "../../contact-channels/internal/contactChannels.js"
import * as Endpoint from "../../core/Endpoint.js"
import {
  CannotGetOwnUserWithoutUser,
  ContactChannelAlreadyUsedForAuthBySomeoneElse,
  EmailAlreadyVerified,
  RedirectUrlNotWhitelisted,
  UserIdDoesNotExist
} from "../../core/KnownErrors.js"
import { SuccessTrue, Uuid } from "../../core/Wire.js"
import { channelsOf, demotePrimary, findChannel, promote } from "../ContactChannels.js"
import { emailFromTemplate, escapeHtml } from "../EmailTemplates.js"
import * as Outbox from "../Outbox.js"
import { randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, requireMe, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { ContactChannelRecord, ProjectRecord, UserRecord } from "../State.js"
import { findUserByAuthChannel } from "../State.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import * as VerificationCodes from "../VerificationCodes.js"
import { isEmail, urlProblems } from "../Validation.js"

// ---------------------------------------------------------------------------------------------
// Definitions (wire terms)
// ---------------------------------------------------------------------------------------------

const UserIdOrMe = Schema.Union([Schema.Literal("me"), Uuid])

const ChannelParams = Schema.Struct({ user_id: UserIdOrMe, contact_channel_id: Uuid })

/** `GET /contact-channels?user_id=<id|me>&contact_channel_id=<id>?`. */
export const listChannels = Endpoint.make({
  name: "Emulator.listContactChannels",
  method: "GET",
  path: "/contact-channels",
  access: "client",
  session: "optional",
  // `user_id` optional, as the service's query schema (contact-channels/crud.tsx)
  query: Schema.Struct({ user_id: Schema.optional(UserIdOrMe), contact_channel_id: Schema.optional(Uuid) }),
  success: ContactChannelList,
  errors: [CannotGetOwnUserWithoutUser, UserIdDoesNotExist]
})

/** `POST /contact-channels` (201); `is_verified` only with server access. */
export const createChannel = Endpoint.make({
  name: "Emulator.createContactChannel",
  method: "POST",
  path: "/contact-channels",
  access: "client",
  session: "optional",
  payload: Schema.Struct({
    user_id: UserIdOrMe,
    type: Schema.Literal("email"),
    value: Schema.String,
    used_for_auth: Schema.Boolean,
    is_primary: Schema.optional(Schema.Boolean),
    is_verified: Schema.optional(Schema.Boolean)
  }),
  success: ContactChannel,
  successStatus: 201,
  errors: [CannotGetOwnUserWithoutUser, UserIdDoesNotExist, ContactChannelAlreadyUsedForAuthBySomeoneElse]
})

/** `GET /contact-channels/{user_id|me}/{id}`. */
export const getChannel = Endpoint.make({
  name: "Emulator.getContactChannel",
  method: "GET",
  path: "/contact-channels/:user_id/:contact_channel_id",
  access: "client",
  session: "optional",
  params: ChannelParams,
  success: ContactChannel,
  errors: [CannotGetOwnUserWithoutUser, UserIdDoesNotExist]
})

/** `PATCH /contact-channels/{user_id|me}/{id}`; `is_verified` only with server access. */
export const updateChannel = Endpoint.make({
  name: "Emulator.updateContactChannel",
  method: "PATCH",
  path: "/contact-channels/:user_id/:contact_channel_id",
  access: "client",
  session: "optional",
  params: ChannelParams,
  payload: Schema.Struct({
    value: Schema.optional(Schema.String),
    type: Schema.optional(Schema.Literal("email")),
    used_for_auth: Schema.optional(Schema.Boolean),
    is_primary: Schema.optional(Schema.Boolean),
    is_verified: Schema.optional(Schema.Boolean)
  }),
  success: ContactChannel,
  errors: [CannotGetOwnUserWithoutUser, UserIdDoesNotExist, ContactChannelAlreadyUsedForAuthBySomeoneElse]
})

/** `DELETE /contact-channels/{user_id|me}/{id}`. */
export const deleteChannel = Endpoint.make({
  name: "Emulator.deleteContactChannel",
  method: "DELETE",
  path: "/contact-channels/:user_id/:contact_channel_id",
  access: "client",
  session: "optional",
  params: ChannelParams,
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser, UserIdDoesNotExist]
})

/** `POST /contact-channels/{user_id|me}/{id}/send-verification-code`. */
export const sendChannelCode = Endpoint.make({
  name: "Emulator.sendContactChannelVerificationCode",
  method: "POST",
  path: "/contact-channels/:user_id/:contact_channel_id/send-verification-code",
  access: "client",
  session: "optional",
  params: ChannelParams,
  payload: Schema.Struct({ callback_url: Schema.String }),
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser, UserIdDoesNotExist, EmailAlreadyVerified, RedirectUrlNotWhitelisted]
})

// ---------------------------------------------------------------------------------------------
// Texts
// ---------------------------------------------------------------------------------------------

/** 400 text of PATCH/DELETE on a channel the user does not have. */
export const notFoundText = "Contact channel not found"
/** 404 text of GET on a channel the user does not have (send-verification-code answers {@link notFoundText}). */
export const notFoundDotText = "Contact channel not found."
/** 400 text of creating (or renaming to) a value the user already has. */
export const alreadyExistsText = "Contact channel already exists"
/** What a client request does to a channel, as the service's texts name it. */
type ChannelOperation = "list" | "create" | "read" | "update" | "delete" | "send"

/**
 * The answer to client access to another user's channels, per operation: 403 `Client can only
 * {operation} contact channels for their own user.` (`contact-channels/crud.tsx` at 2f719903), and
 * 400 for sending a verification code (`contact-channels/[user_id]/[contact_channel_id]/send-verification-code/route.tsx`).
 */
export const foreignUserFailure = (operation: ChannelOperation): TextFailure =>
  operation === "send"
    ? new TextFailure({ status: 400, text: "Can only send verification code for your own user" })
    : new TextFailure({ status: 403, text: `Client can only ${operation} contact channels for their own user.` })

/**
 * The 403 text of a client list without `user_id` (the service's `onList` compares the missing
 * `user_id` with the signed-in user's id: `apps/backend/src/app/api/latest/contact-channels/crud.tsx`
 * at stack-auth/stack-auth 2f719903b181c20940159e9f3aaaa99bc3ec3b0f).
 */
export const listWithoutUserText = "Client can only list contact channels for their own user."

// ---------------------------------------------------------------------------------------------
// Channels of a user
// ---------------------------------------------------------------------------------------------

const viewOf = (user: UserRecord, id: string): ContactChannel => channelsOf(user).find((channel) => channel.id === id)!

/** CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE when another user signs in with `value`. */
const checkAuthValue = (project: ProjectRecord, user: UserRecord, value: string) => {
  const owner = findUserByAuthChannel(project, value)
  return owner !== undefined && owner.id !== user.id
    ? Effect.fail(
      ContactChannelAlreadyUsedForAuthBySomeoneElse.make({
        type: "email",
        contact_channel_value: value,
        would_work_if_email_was_verified: false
      })
    )
    : Effect.void
}

/**
 * The user a request addresses: `me` (the signed-in user), or a user id — with client access
 * only its own (403 text), with server access any existing user (USER_ID_DOES_NOT_EXIST).
 */
const addressedUser = (
  context: RequestContext,
  userId: string,
  operation: ChannelOperation
): Effect.Effect<UserRecord, CannotGetOwnUserWithoutUser | TextFailure | UserIdDoesNotExist> => {
  if (userId === "me") return requireMe(context)
  if (context.auth?.type === "client") {
    return context.auth.user?.id === userId
      ? Effect.succeed(context.auth.user)
      : Effect.fail(foreignUserFailure(operation))
  }
  const user = projectOf(context).users.get(userId)
  return user === undefined ? Effect.fail(UserIdDoesNotExist.make({ user_id: userId })) : Effect.succeed(user)
}

/** SCHEMA_ERROR for `is_verified` sent with client access (only server/admin may set it). */
const rejectClientVerified = (context: RequestContext, isVerified: boolean | undefined) =>
  isVerified !== undefined && context.auth?.type === "client"
    ? Effect.fail(schemaError(context, ["body contains unknown properties: is_verified"]))
    : Effect.void

/** "Sends" the verification e-mail of a channel, linking to `callbackUrl?code=…`. */
const sendChannelEmail = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  channel: ContactChannel,
  callbackUrl: string
): Effect.Effect<void> => {
  const record = VerificationCodes.create(context, project, { purpose: "email_verification", userId: user.id, email: channel.value })
  record.contactChannelId = channel.id
  const link = Outbox.linkWithCode(callbackUrl, record.code)
  return Effect.map(
    emailFromTemplate(project, "email_verification", user, { emailVerificationLink: link }, {
      subject: `Verify your email at ${project.displayName}`,
      text: `Please verify your email address by opening this link:\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail.`,
      html: `<p>Please verify your email address by opening this link:</p><p><a href="${
        escapeHtml(link)
      }">Verify my e-mail</a></p><p>If you did not ask for this, you can ignore this e-mail.</p>`
    }, context.env.settings.emailRenderLimits),
    (rendered) =>
      Outbox.send(context.env.state, {
        projectId: project.id,
        to: channel.value,
        ...rendered,
        kind: "email_verification",
        code: record.code,
        link,
        sentAtMillis: context.nowMillis
      })
  )
}

// ---------------------------------------------------------------------------------------------
// Routes
// ---------------------------------------------------------------------------------------------

/** The contact channel routes. */
export const routes = [
  route(listChannels, ({ query }, context) =>
    Effect.gen(function* () {
      if (query.user_id === undefined) {
        // the service: client access needs a user, then fails (403); server access lists every
        // user's channels, which the emulator does not do (it answers the schema error as before)
        if (context.auth?.type === "client") {
          yield* requireMe(context)
          return yield* Effect.fail(new TextFailure({ status: 403, text: listWithoutUserText }))
        }
        return yield* Effect.fail(schemaError(context, ["query.user_id must be defined"]))
      }
      const user = yield* addressedUser(context, query.user_id, "list")
      const items = channelsOf(user).filter((channel) => query.contact_channel_id === undefined || channel.id === query.contact_channel_id)
      return { items, isPaginated: false as const }
    })),
  route(createChannel, ({ payload }, context) =>
    Effect.gen(function* () {
      if (!isEmail(payload.value)) return yield* Effect.fail(schemaError(context, ["body.value must be a valid email"]))
      yield* rejectClientVerified(context, payload.is_verified)
      const project = projectOf(context)
      const user = yield* addressedUser(context, payload.user_id, "create")
      if (channelsOf(user).some((channel) => channel.value === payload.value)) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: alreadyExistsText }))
      }
      if (payload.used_for_auth) yield* checkAuthValue(project, user, payload.value)
      const record: ContactChannelRecord = {
        id: randomUuid(),
        value: payload.value,
        isVerified: payload.is_verified ?? false,
        usedForAuth: payload.used_for_auth
      }
      user.contactChannels.push(record)
      if (payload.is_primary === true) promote(user, record)
      return viewOf(user, record.id)
    })),
  route(getChannel, ({ params }, context) =>
    Effect.gen(function* () {
      const user = yield* addressedUser(context, params.user_id, "read")
      if (findChannel(user, params.contact_channel_id) === undefined) {
        return yield* Effect.fail(new TextFailure({ status: 404, text: notFoundDotText }))
      }
      return viewOf(user, params.contact_channel_id)
    })),
  route(updateChannel, ({ params, payload }, context) =>
    Effect.gen(function* () {
      if (payload.value !== undefined && !isEmail(payload.value)) {
        return yield* Effect.fail(schemaError(context, ["body.value must be a valid email"]))
      }
      yield* rejectClientVerified(context, payload.is_verified)
      const project = projectOf(context)
      const user = yield* addressedUser(context, params.user_id, "update")
      const id = params.contact_channel_id
      const found = findChannel(user, id)
      if (found === undefined) return yield* Effect.fail(new TextFailure({ status: 400, text: notFoundText }))
      const current = viewOf(user, id)
      const value = payload.value ?? current.value
      const usedForAuth = payload.used_for_auth ?? current.usedForAuth
      if (value !== current.value && channelsOf(user).some((channel) => channel.id !== id && channel.value === value)) {
        return yield* Effect.fail(new TextFailure({ status: 400, text: alreadyExistsText }))
      }
      if (usedForAuth && (value !== current.value || !current.usedForAuth)) yield* checkAuthValue(project, user, value)
      const isVerified = payload.is_verified ?? (value !== current.value ? false : current.isVerified)
      if (found.primary) {
        user.primaryEmail = value
        user.primaryEmailVerified = isVerified
        user.primaryEmailAuthEnabled = usedForAuth
        if (payload.is_primary === false) demotePrimary(user)
      } else {
        found.record.value = value
        found.record.isVerified = isVerified
        found.record.usedForAuth = usedForAuth
        if (payload.is_primary === true) promote(user, found.record)
      }
      return viewOf(user, id)
    })),
  route(deleteChannel, ({ params }, context) =>
    Effect.gen(function* () {
      const user = yield* addressedUser(context, params.user_id, "delete")
      const found = findChannel(user, params.contact_channel_id)
      if (found === undefined) return yield* Effect.fail(new TextFailure({ status: 400, text: notFoundText }))
      if (found.primary) {
        demotePrimary(user)
        const others = user.contactChannels
        others.splice(others.findIndex((channel) => channel.id === params.contact_channel_id), 1)
      } else {
        const others = user.contactChannels
        others.splice(others.indexOf(found.record), 1)
      }
      return { success: true as const }
    })),
  route(sendChannelCode, ({ params, payload }, context) =>
    Effect.gen(function* () {
      if (urlProblems("body.callback_url", payload.callback_url).length > 0) {
        return yield* Effect.fail(schemaError(context, urlProblems("body.callback_url", payload.callback_url)))
      }
      const project = projectOf(context)
      const user = yield* addressedUser(context, params.user_id, "send")
      if (findChannel(user, params.contact_channel_id) === undefined) {
        return yield* Effect.fail(new TextFailure({ status: 404, text: notFoundText }))
      }
      const channel = viewOf(user, params.contact_channel_id)
      if (channel.isVerified) return yield* Effect.fail(EmailAlreadyVerified.make({}))
      if (!isTrustedUrl(project, payload.callback_url)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
      yield* sendChannelEmail(context, project, user, channel, payload.callback_url)
      return { success: true as const }
    }))
]
