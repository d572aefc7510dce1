/**
 * Sending e-mail to the project's users and reading how delivery goes (the official
 * `StackServerApp`'s `sendEmail`, `getEmailDeliveryStats`, `useEmailDeliveryStats` and
 * `activateEmailCapacityBoost`). Server access.
 *
 * `sendEmail` queues one e-mail per user (`POST /emails/send-email`): to the users given
 * by id, or to every user, from HTML, a template of the project (with variables) or a draft. The
 * service goes to each user's primary e-mail address; it does not send to bare addresses (the
 * route takes `user_ids` or `all_users` only). A category the user turned off (`Marketing`, or a
 * template's `<NotificationCategory>`) skips the e-mail (status `skipped`, reason
 * `USER_UNSUBSCRIBED`); e-mails of a category that can be turned off carry an unsubscribe link. The
 * e-mails then show in the outbox (`EmailOutbox`).
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import {
  capacityBoostEndpoint,
  categoryNotFoundByNameText,
  deliveryInfoEndpoint,
  draftNotFoundText,
  sendEmailEndpoint,
  templateNotFoundText
} from "./internal/emailOutbox.js"
import type { SendEmailPayload } from "./internal/emailOutbox.js"
import type { ThemeId } from "./internal/emailTemplates.js"

/** The domain's schemas, defined with its wire definitions (`internal/emailOutbox.ts`). */
export { EmailDeliveryCapacity, EmailDeliveryInfo, EmailDeliveryWindowStats, SendEmailResult } from "./internal/emailOutbox.js"

/** Who gets the e-mail: users by id, or every user of the project (exactly one of the two). */
export type SendEmailRecipients =
  | { readonly userIds: ReadonlyArray<string>; readonly allUsers?: never }
  | { readonly allUsers: true; readonly userIds?: never }

/**
 * What the e-mail says (exactly one): HTML (wrapped in a template with the theme), a template of
 * the project by id with its `variables`, or a draft by id.
 */
export type SendEmailContent =
  | { readonly html: string; readonly templateId?: never; readonly variables?: never; readonly draftId?: never }
  | { readonly templateId: string; readonly variables?: Readonly<Record<string, unknown>>; readonly html?: never; readonly draftId?: never }
  | { readonly draftId: string; readonly html?: never; readonly templateId?: never; readonly variables?: never }

/** The options every e-mail takes. */
export interface SendEmailCommon {
  /** A theme id, `false` for no theme, `null`/absent for the project's (a draft's own theme when sending a draft). */
  readonly themeId?: ThemeId
  /** Replaces the subject the template sets. */
  readonly subject?: string
  /** Replaces the template's notification category (`"Transactional"` or `"Marketing"`). */
  readonly notificationCategoryName?: string
  /** Jumps the service's queue. */
  readonly isHighPriority?: boolean
  /** When to send it (now when absent): until then it waits in the outbox, `scheduled`. */
  readonly scheduledAt?: Date
}

/** The options of {@link sendEmail}: recipients, content and the common options. */
export type SendEmailOptions = SendEmailCommon & SendEmailRecipients & SendEmailContent

/**
 * One of the service's 400 texts of `send-email`: an unknown template (`templateId`), draft
 * (`draftId`) or notification category (`notificationCategoryName`).
 */
export class SendEmailReferenceNotFound extends Data.TaggedError("SendEmailReferenceNotFound")<{
  readonly reference: "template" | "draft" | "notificationCategory"
  readonly message: string
}> {}

const references = [
  ["template", templateNotFoundText],
  ["draft", draftNotFoundText],
  ["notificationCategory", categoryNotFoundByNameText]
] as const

const mapReferenceErrors = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SendEmailReferenceNotFound, R> =>
  Effect.mapError(effect, (error): E | SendEmailReferenceNotFound => {
    if (!(error instanceof HttpError) || error.status !== 400) return error
    const found = references.find(([, text]) => error.body.trim() === text)
    return found === undefined ? error : new SendEmailReferenceNotFound({ reference: found[0], message: found[1] })
  })

/** The cache key of the delivery statistics (see `QueryCache`). */
export const deliveryStatsCacheKey: QueryCache.Key = ["emails", "delivery-info"]

const toPayload = (options: SendEmailOptions): SendEmailPayload => ({
  ...(options.userIds !== undefined ? { userIds: options.userIds } : {}),
  ...(options.allUsers !== undefined ? { allUsers: options.allUsers } : {}),
  ...(options.html !== undefined ? { html: options.html } : {}),
  ...(options.templateId !== undefined ? { templateId: options.templateId } : {}),
  ...(options.variables !== undefined ? { variables: options.variables } : {}),
  ...(options.draftId !== undefined ? { draftId: options.draftId } : {}),
  ...(options.subject !== undefined ? { subject: options.subject } : {}),
  ...(options.notificationCategoryName !== undefined ? { notificationCategoryName: options.notificationCategoryName } : {}),
  ...(options.themeId !== undefined ? { themeId: options.themeId } : {}),
  ...(options.isHighPriority !== undefined ? { isHighPriority: options.isHighPriority } : {}),
  ...(options.scheduledAt !== undefined ? { scheduledAt: options.scheduledAt } : {})
})

/**
 * Sends an e-mail to users of the project; answers the users it was queued for (one e-mail each).
 * `POST /emails/send-email`; needs `ServerAccess`. Fails with `RequiresCustomEmailServer` (the
 * project uses the shared e-mail server), `UserIdDoesNotExist` (an unknown user id),
 * {@link SendEmailReferenceNotFound} (unknown template, draft or category), `SchemaError` (e.g. a
 * malformed template id). Refreshes the cached delivery statistics, outbox and drafts.
 */
export const sendEmail = Effect.fn("ServerEmails.sendEmail")(function* (options: SendEmailOptions) {
  const answer = yield* mapReferenceErrors(Endpoint.call(sendEmailEndpoint, { payload: toPayload(options) })).pipe(
    QueryCache.invalidating(deliveryStatsCacheKey, ["emails", "outbox"], ["emails", "drafts"])
  )
  return answer.results
})

/**
 * The project's e-mail delivery statistics (sent, bounced, marked as spam in the last hour, day,
 * week and month) and sending capacity. `GET /emails/delivery-info`, through the query cache (key
 * {@link deliveryStatsCacheKey}); needs `ServerAccess`.
 */
export const getDeliveryStats = Effect.fn("ServerEmails.getDeliveryStats")(function* () {
  return yield* QueryCache.cached(deliveryStatsCacheKey, Endpoint.call(deliveryInfoEndpoint, {}))
})

/**
 * Raises the project's sending capacity fourfold for 4 hours and answers when the boost ends.
 * `POST /emails/capacity-boost`; needs `ServerAccess`. Fails with `EmailCapacityBoostAlreadyActive`
 * while a boost runs. Refreshes the delivery statistics.
 */
export const activateCapacityBoost = Effect.fn("ServerEmails.activateCapacityBoost")(function* () {
  const answer = yield* Endpoint.call(capacityBoostEndpoint, { payload: {} }).pipe(QueryCache.invalidating(deliveryStatsCacheKey))
  return new Date(answer.expiresAt)
})
