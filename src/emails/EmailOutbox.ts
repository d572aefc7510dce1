/**
 * The project's e-mail outbox (the official `StackAdminApp`'s `listOutboxEmails`,
 * `getOutboxEmail`, `updateOutboxEmail`, `pauseOutboxEmail`, `unpauseOutboxEmail`,
 * `cancelOutboxEmail`): every e-mail the service sends, with its state. Admin access.
 *
 * `GET /emails/outbox`, `GET|PATCH /emails/outbox/{id}`: newest first, 100 at
 * most per page; an e-mail can be changed (content, recipient, time, paused) or cancelled only
 * while it has not been sent (`paused`, `preparing`, `rendering`, `render-error`, `scheduled`,
 * `queued`, `server-error`), else `EmailNotEditable`. Cancelling makes it `skipped` with reason
 * `MANUALLY_CANCELLED`.
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { outboxGetEndpoint, outboxListEndpoint, outboxNotFoundText, outboxUpdateEndpoint } from "./internal/emailOutbox.js"
import type { OutboxEmail, OutboxEmailUpdate } from "./internal/emailOutbox.js"

/** The domain's schemas, defined with its wire definitions (`internal/emailOutbox.ts`). */
export { OutboxEmail, OutboxEmailUpdate, OutboxRecipient, SendAttemptError } from "./internal/emailOutbox.js"
export type { OutboxEmailSimpleStatus, OutboxEmailStatus } from "./internal/emailOutbox.js"

/** The outbox has no e-mail with this id: the service's 404 "Email not found". */
export class OutboxEmailNotFound extends Data.TaggedError("OutboxEmailNotFound")<{
  readonly emailId: string
  readonly message: string
}> {}

const mapNotFound = (emailId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | OutboxEmailNotFound, R> =>
  Effect.mapError(
    effect,
    (error): E | OutboxEmailNotFound =>
      error instanceof HttpError && error.status === 404 && error.body.trim() === outboxNotFoundText
        ? new OutboxEmailNotFound({ emailId, message: outboxNotFoundText })
        : error
  )

/** Filters and page of {@link list}. */
export interface ListOptions {
  /** Only e-mails in this state (e.g. `"scheduled"`). */
  readonly status?: OutboxEmail["status"]
  /** Only e-mails in this summed-up state. */
  readonly simpleStatus?: OutboxEmail["simpleStatus"]
  /** At most this many (1–100; the service's default and maximum is 100). */
  readonly limit?: number
  /** Start at this e-mail (the `nextCursor` of the previous page). */
  readonly cursor?: string
}

/** A page of the outbox: the e-mails, and the cursor of the next page (null on the last). */
export interface ListResult {
  readonly items: ReadonlyArray<OutboxEmail>
  readonly nextCursor: string | null
}

/** The cache key of an outbox page (see `QueryCache`). */
export const cacheKey = (options: ListOptions = {}): QueryCache.Key => ["emails", "outbox", JSON.stringify(options)]

const invalidatesOutbox = QueryCache.invalidating(["emails", "outbox"])

/**
 * A page of the outbox, newest first. `GET /emails/outbox`, through the query cache; needs
 * `AdminAccess`. A `limit` outside 1–100 is the service's 400 (`HttpError`).
 */
export const list = Effect.fn("EmailOutbox.list")(function* (options: ListOptions = {}) {
  const answer = yield* QueryCache.cached(
    cacheKey(options),
    Endpoint.call(outboxListEndpoint, {
      query: {
        ...(options.status !== undefined ? { status: options.status } : {}),
        ...(options.simpleStatus !== undefined ? { simpleStatus: options.simpleStatus } : {}),
        ...(options.limit !== undefined ? { limit: String(options.limit) } : {}),
        ...(options.cursor !== undefined ? { cursor: options.cursor } : {})
      }
    })
  )
  const result: ListResult = { items: answer.items, nextCursor: answer.pagination?.nextCursor ?? null }
  return result
})

/** One e-mail of the outbox. `GET /emails/outbox/{id}`; needs `AdminAccess`. Fails with {@link OutboxEmailNotFound}. */
export const get = Effect.fn("EmailOutbox.get")(function* (emailId: string) {
  return yield* Endpoint.call(outboxGetEndpoint, { params: { id: emailId } }).pipe(mapNotFound(emailId))
})

/**
 * Changes an e-mail that has not been sent yet and answers it as it is now: a new source, theme,
 * recipient or variables render it again; a new `scheduledAt` moves it; `isPaused` holds it.
 * `PATCH /emails/outbox/{id}`; needs `AdminAccess`. Fails with `EmailNotEditable` (already sent,
 * skipped…) or {@link OutboxEmailNotFound}.
 */
export const update = Effect.fn("EmailOutbox.update")(function* (emailId: string, changes: OutboxEmailUpdate) {
  return yield* Endpoint.call(outboxUpdateEndpoint, { params: { id: emailId }, payload: changes }).pipe(mapNotFound(emailId), invalidatesOutbox)
})

/** Holds an e-mail that has not been sent ({@link update} with `isPaused: true`). */
export const pause = Effect.fn("EmailOutbox.pause")(function* (emailId: string) {
  return yield* update(emailId, { isPaused: true })
})

/** Lets a paused e-mail go ({@link update} with `isPaused: false`). */
export const unpause = Effect.fn("EmailOutbox.unpause")(function* (emailId: string) {
  return yield* update(emailId, { isPaused: false })
})

/** Cancels an e-mail that has not been sent: it becomes `skipped`, reason `MANUALLY_CANCELLED` ({@link update} with `cancel: true`). */
export const cancel = Effect.fn("EmailOutbox.cancel")(function* (emailId: string) {
  return yield* update(emailId, { cancel: true })
})
