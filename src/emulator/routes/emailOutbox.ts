/**
 * Sending e-mail and its outbox (backend `apps/backend/src/app/api/latest/emails/` at 2f719903):
 *
 * - `POST /emails/send-email` (`send-email/route.tsx`): the body is one of three shapes (`html`,
 *   `template_id` with `variables`, `draft_id`), else the union's SCHEMA_ERROR; a project on the
 *   shared e-mail server is `REQUIRES_CUSTOM_EMAIL_SERVER`; exactly one of `user_ids` /
 *   `all_users`; an unknown category name, template or draft is a 400 text; an unknown user is
 *   `USER_ID_DOES_NOT_EXIST`. One row per user goes into the queue (`EmailQueue.ts`); a draft
 *   records its `sent_at_millis`. (The service first refuses with a 500 when its renderer's key
 *   `STACK_FREESTYLE_API_KEY` is not set; the emulator renders by itself.)
 * - `GET /emails/delivery-info` (`delivery-info/route.tsx`): e-mails sent in the last hour, day,
 *   week and month (30 days) from the emulator's outbox, none bounced nor marked as spam; the
 *   capacity as the service computes it. `POST /emails/capacity-boost` (`capacity-boost/route.tsx`):
 *   4 hours at four times the rate; `EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE` while one runs.
 * - `GET /emails/outbox`, `GET|PATCH /emails/outbox/{id}` (`outbox/crud.tsx`): newest first,
 *   `limit` 1–100 and `cursor` (the first e-mail of the page), `status` / `simple_status` filters;
 *   changes only in the editable states (else `EMAIL_NOT_EDITABLE`), `cancel` makes the e-mail
 *   `skipped` (`MANUALLY_CANCELLED`), a change of content renders it again. Server access and up.
 * - `GET /emails/unsubscribe-link?code=` (`unsubscribe-link/route.tsx`): turns the category of the
 *   link off for its user, HTML answers.
 * - `POST /internal/send-sign-in-invitation` (`internal/send-sign-in-invitation/route.tsx`): the
 *   "Sign In Invitation" template to an address, the callback URL must be trusted.
 *
 * @module
 */
import { Effect, Schema } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import {
  EmailCapacityBoostAlreadyActive,
  EmailNotEditable,
  RedirectUrlNotWhitelisted,
  RequiresCustomEmailServer,
  SchemaError,
  UserIdDoesNotExist,
  VerificationCodeExpired,
  VerificationCodeNotFound
} from "../../core/KnownErrors.js"
import {
  capacityBoostEndpoint,
  categoryNotFoundByNameText,
  deliveryInfoEndpoint,
  draftNotFoundText,
  outboxGetEndpoint,
  outboxListEndpoint,
  outboxNotFoundText,
  outboxUpdateEndpoint,
  sendEmailEndpoint,
  templateNotFoundText
} from "../../emails/internal/emailOutbox.js"
import type { SendEmailPayload } from "../../emails/internal/emailOutbox.js"
import { sendSignInInvitationEndpoint } from "../../emails/internal/emails.js"
import * as EmailQueue from "../EmailQueue.js"
import { emailFromTemplate, escapeHtml } from "../EmailTemplates.js"
import * as NotificationCategories from "../NotificationCategories.js"
import * as Outbox from "../Outbox.js"
import { isUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, schemaError } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { ProjectRecord } from "../State.js"
import { isTrustedUrl } from "../TrustedUrls.js"
import { isEmail, isUrl } from "../Validation.js"

/** The descriptor served with server access (the service takes server access and up where the SDK calls with admin access). */
const withServerAccess = <E extends Endpoint.Any>(endpoint: E): E => ({ ...endpoint, access: "server" }) as E

/** `GET /emails/unsubscribe-link?code=` (no project authentication; the answer is HTML). */
export const unsubscribeLinkEndpoint = Endpoint.make({
  name: "Emulator.unsubscribeLink",
  method: "GET",
  path: "/emails/unsubscribe-link",
  access: "none",
  session: "none",
  query: Schema.Struct({ code: Schema.optional(Schema.String) }),
  success: Schema.instanceOf(Response),
  errors: [VerificationCodeNotFound, VerificationCodeExpired]
})

const contentKeys = ["html", "template_id", "draft_id"] as const

/**
 * The union's SCHEMA_ERROR of `send-email` (shared `schema-fields.ts` `yupUnion`: "… is not
 * matched by any of the provided schemas", each schema's errors), or nothing when exactly one
 * content shape fits: its key given, the other two absent, `variables` only with `template_id`.
 */
const contentProblem = (payload: SendEmailPayload): string | undefined => {
  const given = {
    html: payload.html !== undefined,
    template_id: payload.templateId !== undefined,
    draft_id: payload.draftId !== undefined,
    variables: payload.variables !== undefined
  }
  const fits = contentKeys.some((key) =>
    given[key] && contentKeys.every((other) => other === key || !given[other]) && (!given.variables || key === "template_id")
  )
  if (fits) return undefined
  const schemaErrors = contentKeys.map((key, index) => {
    const unknown = [...contentKeys.filter((other) => other !== key && given[other]), ...(given.variables && key !== "template_id" ? ["variables"] : [])]
    const errors = [
      ...(given[key] ? [] : [`body.${key} must be defined`]),
      ...(unknown.length > 0 ? [`body contains unknown properties: ${unknown.join(", ")}`] : [])
    ]
    return `  Schema ${index}:\n    ${errors.join("\n    ")}`
  })
  return `body is not matched by any of the provided schemas:\n${schemaErrors.join("\n")}`
}

const badRequest = (text: string) => new TextFailure({ status: 400, text })

const requireCustomServer = (project: ProjectRecord) =>
  EmailQueue.usesSharedEmailServer(project) ? Effect.fail(RequiresCustomEmailServer.make({})) : Effect.void

/** The content, theme and origin of a send-email request. */
const resolveContent = (project: ProjectRecord, payload: SendEmailPayload) =>
  Effect.gen(function* () {
    // null: no theme; undefined: the project's theme (backend send-email/route.tsx)
    let themeId: string | null | undefined = payload.themeId === false ? null : payload.themeId ?? undefined
    if (payload.templateId !== undefined) {
      const template = project.emailTemplates.get(payload.templateId)
      if (template === undefined) return yield* Effect.fail(badRequest(templateNotFoundText))
      return { tsxSource: template.tsxSource, themeId, createdWith: { type: "programmatic-call", templateId: payload.templateId } as const }
    }
    if (payload.html !== undefined) {
      return { tsxSource: EmailQueue.templateFromHtml(payload.html), themeId, createdWith: { type: "programmatic-call", templateId: null } as const }
    }
    const draft = project.emailDrafts.get(payload.draftId!)
    if (draft === undefined) return yield* Effect.fail(badRequest(draftNotFoundText))
    if (payload.themeId === undefined) themeId = draft.themeId === false ? null : draft.themeId === "project" ? undefined : draft.themeId
    return { tsxSource: draft.tsxSource, themeId, createdWith: { type: "draft", draftId: draft.id } as const }
  })

/** Answers the outbox after the queue step. */
const outbox = (context: RequestContext) =>
  Effect.gen(function* () {
    const project = projectOf(context)
    yield* EmailQueue.runQueueStep(context, project)
    return EmailQueue.outboxOf(context.env.state, project, context.nowMillis)
  })

const maxLimit = 100

/** A plain sign-in invitation, when the project's template no longer renders. */
const invitationFallback = (projectName: string, link: string) => ({
  subject: `You have been invited to sign in to ${projectName}`,
  text: `You have been invited to sign in to ${projectName}: ${link}`,
  html: `<p>You have been invited to sign in to ${escapeHtml(projectName)}: <a href="${escapeHtml(link)}">Sign in</a></p>`
})

/** The routes of sending e-mail and the outbox. */
export const routes = [
  route(sendEmailEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const problem = contentProblem(payload)
      if (problem !== undefined) return yield* Effect.fail(schemaError(context, [problem]))
      const project = projectOf(context)
      yield* requireCustomServer(project)
      if ((payload.userIds !== undefined) === (payload.allUsers !== undefined)) {
        return yield* Effect.fail(SchemaError.make({ message: "Exactly one of user_ids or all_users must be provided" }))
      }
      let category: NotificationCategories.CategoryDefinition | undefined
      if (payload.notificationCategoryName !== undefined && payload.notificationCategoryName !== "") {
        category = NotificationCategories.categories.find((candidate) => candidate.name === payload.notificationCategoryName)
        if (category === undefined) return yield* Effect.fail(badRequest(categoryNotFoundByNameText))
      }
      const content = yield* resolveContent(project, payload)
      const userIds = payload.allUsers === true ? [...project.users.keys()] : payload.userIds!
      if (payload.allUsers !== true) {
        const missing = [...new Set(userIds)].find((userId) => !project.users.has(userId))
        if (missing !== undefined) return yield* Effect.fail(UserIdDoesNotExist.make({ user_id: missing }))
      }
      const scheduledAt = payload.scheduledAt !== undefined && payload.scheduledAt.getTime() !== 0 ? payload.scheduledAt.getTime() : context.nowMillis
      EmailQueue.enqueue(context, project, {
        recipients: userIds.map((userId) => ({ type: "user-primary-email", userId })),
        tsxSource: content.tsxSource,
        themeId: content.themeId === null ? null : content.themeId ?? EmailQueue.selectedThemeId(project),
        variables: payload.variables ?? {},
        scheduledAtMillis: scheduledAt,
        createdWith: content.createdWith,
        isHighPriority: payload.isHighPriority ?? false,
        overrideSubject: payload.subject === undefined || payload.subject === "" ? undefined : payload.subject,
        overrideNotificationCategoryId: category?.id
      })
      if (content.createdWith.type === "draft") project.emailDrafts.get(content.createdWith.draftId)!.sentAtMillis = context.nowMillis
      yield* EmailQueue.runQueueStep(context, project)
      return { results: userIds.map((userId) => ({ userId })) }
    })),
  route(deliveryInfoEndpoint, (_input, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* EmailQueue.runQueueStep(context, project)
      const window = (millis: number) => ({
        sent: EmailQueue.sentWithin(context.env.state, project.id, context.nowMillis, millis),
        bounced: 0,
        markedAsSpam: 0
      })
      const stats = {
        hour: window(EmailQueue.deliveryWindows.hour),
        day: window(EmailQueue.deliveryWindows.day),
        week: window(EmailQueue.deliveryWindows.week),
        month: window(EmailQueue.deliveryWindows.month)
      }
      return { stats, capacity: EmailQueue.capacityOf(stats.month.sent, project.emailCapacityBoostExpiresAtMillis, context.nowMillis) }
    })),
  route(capacityBoostEndpoint, (_input, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const current = project.emailCapacityBoostExpiresAtMillis
      if (current !== undefined && current > context.nowMillis) {
        return yield* Effect.fail(EmailCapacityBoostAlreadyActive.make({ expires_at: new Date(current).toISOString() }))
      }
      project.emailCapacityBoostExpiresAtMillis = context.nowMillis + EmailQueue.boostDurationMillis
      return { expiresAt: new Date(project.emailCapacityBoostExpiresAtMillis).toISOString() }
    })),
  route(withServerAccess(outboxListEndpoint), ({ query }, context) =>
    Effect.gen(function* () {
      const limit = query.limit === undefined ? maxLimit : Number.parseInt(query.limit, 10)
      if (Number.isNaN(limit) || limit < 1) return yield* Effect.fail(badRequest("Invalid limit parameter"))
      if (limit > maxLimit) return yield* Effect.fail(badRequest(`Limit cannot exceed ${maxLimit}`))
      if (query.cursor !== undefined && !isUuid(query.cursor)) return yield* Effect.fail(schemaError(context, ["query.cursor must be a valid UUID"]))
      const all = (yield* outbox(context)).filter(
        (email) =>
          (query.status === undefined || email.status === query.status.toLowerCase().replace(/_/g, "-")) &&
          (query.simpleStatus === undefined || email.simpleStatus === query.simpleStatus.toLowerCase().replace(/_/g, "-"))
      )
      const start = query.cursor === undefined ? 0 : all.findIndex((email) => email.id === query.cursor)
      const page = start < 0 ? [] : all.slice(start, start + limit + 1)
      const hasMore = page.length > limit
      return { items: page.slice(0, limit), isPaginated: true, pagination: { nextCursor: hasMore ? page[limit]!.id : null } }
    })),
  route(withServerAccess(outboxGetEndpoint), ({ params }, context) =>
    Effect.gen(function* () {
      const found = (yield* outbox(context)).find((email) => email.id === params.id)
      return found ?? (yield* Effect.fail(new TextFailure({ status: 404, text: outboxNotFoundText })))
    })),
  route(withServerAccess(outboxUpdateEndpoint), ({ params, payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = project.emailQueue.get(params.id)
      if (record === undefined) {
        const sent = Outbox.list(context.env.state, { projectId: project.id }).find((entry) => entry.id === params.id)
        if (sent === undefined) return yield* Effect.fail(new TextFailure({ status: 404, text: outboxNotFoundText }))
        return yield* Effect.fail(EmailNotEditable.make({ email_id: sent.id, status: "SENT" }))
      }
      const current = EmailQueue.view(record, context.nowMillis)
      if (!EmailQueue.editableStatuses.has(current.status) || (payload.cancel === true && record.progress.kind === "skipped")) {
        return yield* Effect.fail(EmailNotEditable.make({ email_id: record.id, status: EmailQueue.databaseStatus(record, context.nowMillis) }))
      }
      if (payload.cancel === true) {
        record.isPaused = false
        record.progress = {
          kind: "skipped",
          reason: "MANUALLY_CANCELLED",
          atMillis: context.nowMillis,
          rendering: record.progress.kind === "pending" ? record.progress.rendering : undefined
        }
      } else {
        let rerender = false
        if (payload.tsxSource !== undefined) {
          record.tsxSource = payload.tsxSource
          rerender = true
        }
        if (payload.themeId !== undefined) {
          record.themeId = payload.themeId
          rerender = true
        }
        if (payload.to !== undefined) {
          record.to = payload.to
          rerender = true
        }
        if (payload.variables !== undefined) {
          record.variables = payload.variables
          rerender = true
        }
        if (payload.skipDeliverabilityCheck !== undefined) record.skipDeliverabilityCheck = payload.skipDeliverabilityCheck
        if (payload.scheduledAt !== undefined) record.scheduledAtMillis = payload.scheduledAt.getTime()
        if (payload.isPaused !== undefined) record.isPaused = payload.isPaused
        if (rerender) record.progress = { kind: "pending", rendering: undefined }
      }
      record.updatedAtMillis = context.nowMillis
      return EmailQueue.view(record, context.nowMillis)
    })),
  route(
    unsubscribeLinkEndpoint,
    ({ query }, context) =>
      Effect.gen(function* () {
        const html = (text: string) => new Response(text, { status: 200, headers: { "content-type": "text/html" } })
        const code = query.code
        if (code === undefined || code.length !== 45) {
          return new Response("Invalid code", { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } })
        }
        const lower = code.toLowerCase()
        const found = [...context.env.state.projects.values()]
          .map((project) => ({ project, record: project.codes.get(lower) }))
          .find(({ record }) => record !== undefined && record.purpose === "unsubscribe_link")
        if (found === undefined) return yield* Effect.fail(VerificationCodeNotFound.make({}))
        const record = found.record!
        if (record.expiresAtMillis < context.nowMillis) return yield* Effect.fail(VerificationCodeExpired.make({}))
        if (record.usedAtMillis !== undefined) return html("<p>You have already unsubscribed from this notification group</p>")
        record.usedAtMillis = context.nowMillis
        const user = record.userId === null ? undefined : found.project.users.get(record.userId)
        if (user !== undefined && record.notificationCategoryId !== undefined) NotificationCategories.setPreference(user, record.notificationCategoryId, false)
        return html("<p>Successfully unsubscribed from notification group</p>")
      }),
    { skipProjectAuth: true }
  ),
  route(withServerAccess(sendSignInInvitationEndpoint), ({ payload }, context) =>
    Effect.gen(function* () {
      const problems = [
        ...(isEmail(payload.email) ? [] : ["body.email must be a valid email"]),
        ...(isUrl(payload.callbackUrl) ? [] : ["body.callback_url must be a valid URL"])
      ]
      if (problems.length > 0) return yield* Effect.fail(schemaError(context, problems))
      const project = projectOf(context)
      if (!isTrustedUrl(project, payload.callbackUrl)) return yield* Effect.fail(RedirectUrlNotWhitelisted.make({}))
      const variables = { signInInvitationLink: payload.callbackUrl, teamDisplayName: project.displayName }
      const email = yield* emailFromTemplate(
        project,
        "sign_in_invitation",
        null,
        variables,
        invitationFallback(project.displayName, payload.callbackUrl),
        context.env.settings.emailRenderLimits
      )
      Outbox.send(context.env.state, {
        projectId: project.id,
        to: payload.email,
        ...email,
        kind: "sign_in_invitation",
        code: null,
        link: payload.callbackUrl,
        sentAtMillis: context.nowMillis
      })
      return { success: true as const }
    }))
]
