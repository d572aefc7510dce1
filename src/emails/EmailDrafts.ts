/**
 * The project's e-mail drafts (the official `StackAdminApp`'s `listEmailDrafts` /
 * `useEmailDrafts`, `createEmailDraft`, `updateEmailDraft`, `deleteEmailDraft`): e-mails written
 * once and sent with `ServerEmails.sendEmail({ draftId })`, which records when (`sentAt`). Admin
 * access. `/internal/email-drafts` (backend `apps/backend/src/app/api/latest/internal/email-drafts/`
 * at 2f719903).
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { HttpError } from "../core/Errors.js"
import { createEndpoint, deleteEndpoint, draftNotFoundText, getEndpoint, listEndpoint, updateEndpoint } from "./internal/emailDrafts.js"
import type { EmailDraftCreate, EmailDraftUpdate } from "./internal/emailDrafts.js"

/** The domain's schemas, defined with its wire definitions (`internal/emailDrafts.ts`). */
export { DraftThemeId, EmailDraft, EmailDraftCreate, EmailDraftUpdate } from "./internal/emailDrafts.js"

/** The project has no draft with this id: the service's 404 "No draft found with given id". */
export class EmailDraftNotFound extends Data.TaggedError("EmailDraftNotFound")<{
  readonly draftId: string
  readonly message: string
}> {}

const mapNotFound = (draftId: string) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | EmailDraftNotFound, R> =>
  Effect.mapError(
    effect,
    (error): E | EmailDraftNotFound =>
      error instanceof HttpError && error.status === 404 && error.body.trim() === draftNotFoundText
        ? new EmailDraftNotFound({ draftId, message: draftNotFoundText })
        : error
  )

/** The cache key of the draft list (see `QueryCache`); one draft's key is this plus its id. */
export const cacheKey: QueryCache.Key = ["emails", "drafts"]

const invalidatesDrafts = QueryCache.invalidating(cacheKey)

/** The project's drafts, newest change first. `GET /internal/email-drafts`, through the query cache; needs `AdminAccess`. */
export const list = Effect.fn("EmailDrafts.list")(function* () {
  const answer = yield* QueryCache.cached(cacheKey, Endpoint.call(listEndpoint, {}))
  return answer.drafts
})

/** One draft. `GET /internal/email-drafts/{id}`, through the query cache; needs `AdminAccess`. Fails with {@link EmailDraftNotFound}. */
export const get = Effect.fn("EmailDrafts.get")(function* (draftId: string) {
  return yield* QueryCache.cached([...cacheKey, draftId], Endpoint.call(getEndpoint, { params: { id: draftId } }).pipe(mapNotFound(draftId)))
})

/**
 * Creates a draft and returns its id (without `tsxSource`, the service's default draft source).
 * `POST /internal/email-drafts`; needs `AdminAccess`.
 */
export const create = Effect.fn("EmailDrafts.create")(function* (input: EmailDraftCreate) {
  const answer = yield* Endpoint.call(createEndpoint, { payload: input }).pipe(invalidatesDrafts)
  return answer.id
})

/**
 * Changes a draft. As the service does, a change without `themeId` puts the draft back on the
 * project's theme. `PATCH /internal/email-drafts/{id}`; needs `AdminAccess`.
 */
export const update = Effect.fn("EmailDrafts.update")(function* (draftId: string, changes: EmailDraftUpdate) {
  yield* Endpoint.call(updateEndpoint, { params: { id: draftId }, payload: changes }).pipe(invalidatesDrafts)
})

/** Deletes a draft. `DELETE /internal/email-drafts/{id}`; needs `AdminAccess`. Fails with {@link EmailDraftNotFound}. */
const deleteDraft = Effect.fn("EmailDrafts.delete")(function* (draftId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { id: draftId } }).pipe(mapNotFound(draftId), invalidatesDrafts)
})

export {
  /** Deletes a draft (see {@link deleteDraft}). */
  deleteDraft as delete
}
