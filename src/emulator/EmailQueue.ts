/**
 * The e-mail queue of the emulator: what `POST /emails/send-email` queues and `/emails/outbox`
 * shows, as the service's outbox does it (backend `apps/backend/src/lib/emails.tsx`
 * `sendEmailToMany`, `lib/email-queue-step.tsx`, `app/api/latest/emails/outbox/crud.tsx` at
 * 2f719903):
 *
 * - one row per recipient ({@link enqueue}); the queue step ({@link runQueueStep}) renders each row
 *   with its theme (a first pass finds its notification category; a category that can be turned
 *   off gets a second pass with an unsubscribe link), then, once `scheduledAt` has come and the row
 *   is not paused, resolves the recipient: a deleted user is skipped (`USER_ACCOUNT_DELETED`), a
 *   user without a primary e-mail too (`USER_HAS_NO_PRIMARY_EMAIL`), a user who turned the
 *   category off as well (`USER_UNSUBSCRIBED`); else the e-mail goes into the emulator's outbox
 *   (`Outbox.send`, kind `sent_email`) and the row is `sent`. The service runs its step in the
 *   background; the emulator runs it when a request queues e-mail and before it answers the
 *   outbox or the delivery statistics, so a scheduled e-mail is sent by the first such request
 *   after its time.
 * - {@link view}: a row as the outbox answers it (one shape per status).
 * - {@link renderForOutbox}: the one place the e-mail routes render a template with a theme.
 *
 * @module
 */
import { Effect, Result } from "effect"
import type { OutboxEmail } from "../emails/internal/emailOutbox.js"
import { defaultTemplateIds } from "./EmailTemplates.js"
import * as NotificationCategories from "./NotificationCategories.js"
import * as Outbox from "./Outbox.js"
import { randomUuid } from "./Random.js"
import type { RenderedEmail, RenderOptions } from "./rendering/RenderEmail.js"
import { renderEmailWithTemplate } from "./rendering/RenderEmail.js"
import { defaultThemeId, emptyTheme } from "./rendering/Themes.js"
import type { RequestContext } from "./RequestContext.js"
import type { EmulatorState, OutboxEntry, ProjectRecord, QueuedEmailRecipient, QueuedEmailRecord, QueuedEmailRendering } from "./State.js"
import * as VerificationCodes from "./VerificationCodes.js"

/**
 * Renders a template with a theme: the one call of the renderer by the e-mail routes (send-email's
 * queue, theme updates, previews). Fails with the renderer's error text.
 */
export const renderForOutbox = (templateSource: string, themeSource: string, options: RenderOptions): Effect.Effect<RenderedEmail, string> =>
  Effect.mapError(
    renderEmailWithTemplate(templateSource, themeSource, options),
    (failure) => failure._tag === "RenderFailure" ? failure.errorText : failure.message
  )

/** The project's logos as a theme shows them. */
export const projectLogos = (project: ProjectRecord) => ({
  logoUrl: project.logoUrl ?? undefined,
  logoFullUrl: project.logoFullUrl ?? undefined,
  logoDarkModeUrl: project.logoDarkModeUrl ?? undefined,
  logoFullDarkModeUrl: project.logoFullDarkModeUrl ?? undefined
})

/**
 * Whether the project sends through the service's shared e-mail server: its e-mail config says so
 * and no environment-level override (an applied managed provider writes one) says otherwise.
 */
export const usesSharedEmailServer = (project: ProjectRecord): boolean =>
  project.config.emailConfig === undefined || project.config.emailConfig.type === "shared"

/** The id of the project's selected theme (`email_theme`; the service's default when absent). */
export const selectedThemeId = (project: ProjectRecord): string => project.config.emailTheme ?? defaultThemeId

/**
 * The TSX source of a theme (backend `lib/email-rendering.tsx` `getEmailThemeForThemeId`): a theme
 * of the project by id, none for `false`, else the project's selected theme.
 */
export const themeSource = (project: ProjectRecord, themeId: string | false | null | undefined): string => {
  if (typeof themeId === "string" && project.emailThemes.has(themeId)) return project.emailThemes.get(themeId)!.tsxSource
  if (themeId === false) return emptyTheme
  return (project.emailThemes.get(selectedThemeId(project)) ?? project.emailThemes.get(defaultThemeId) ?? { tsxSource: emptyTheme }).tsxSource
}

/** A template made of HTML (backend `lib/email-rendering.tsx` `createTemplateComponentFromHtml`). */
export const templateFromHtml = (html: string): string =>
  `export const variablesSchema = v => v;\nexport function EmailTemplate() {\n  return <>\n    <div dangerouslySetInnerHTML={{ __html: ${
    JSON.stringify(html)
  }}} />\n  </>\n};`

/** The service's external message of a render error (backend `lib/email-queue-step.tsx` `markRenderError`). */
export const renderErrorText = "An error occurred while rendering the email. Make sure the template/draft is valid and the theme is set correctly."

/** How long an unsubscribe link works (backend `lib/notification-categories.ts`: 30 days). */
export const unsubscribeLinkLifetimeMillis = 1000 * 60 * 60 * 24 * 30

/** What {@link enqueue} queues: one row per recipient. */
export interface NewQueuedEmail {
  readonly recipients: ReadonlyArray<QueuedEmailRecipient>
  readonly tsxSource: string
  readonly themeId: string | null
  readonly variables: Readonly<Record<string, unknown>>
  readonly scheduledAtMillis: number
  readonly createdWith: { readonly type: "draft"; readonly draftId: string } | { readonly type: "programmatic-call"; readonly templateId: string | null }
  readonly isHighPriority: boolean
  readonly overrideSubject: string | undefined
  readonly overrideNotificationCategoryId: string | undefined
}

/** Queues one row per recipient (pending: the queue step renders and sends them). */
export const enqueue = (context: RequestContext, project: ProjectRecord, input: NewQueuedEmail): ReadonlyArray<QueuedEmailRecord> =>
  input.recipients.map((to) => {
    const record: QueuedEmailRecord = {
      id: randomUuid(),
      createdAtMillis: context.nowMillis,
      updatedAtMillis: context.nowMillis,
      tsxSource: input.tsxSource,
      themeId: input.themeId,
      to,
      variables: input.variables,
      skipDeliverabilityCheck: false,
      scheduledAtMillis: input.scheduledAtMillis,
      createdWith: input.createdWith.type,
      emailDraftId: input.createdWith.type === "draft" ? input.createdWith.draftId : null,
      templateId: input.createdWith.type === "programmatic-call" ? input.createdWith.templateId : null,
      isHighPriority: input.isHighPriority,
      overrideSubject: input.overrideSubject,
      overrideNotificationCategoryId: input.overrideNotificationCategoryId,
      isPaused: false,
      progress: { kind: "pending", rendering: undefined }
    }
    project.emailQueue.set(record.id, record)
    return record
  })

const userOf = (project: ProjectRecord, to: QueuedEmailRecipient) => ("userId" in to ? project.users.get(to.userId) : undefined)

/** An unsubscribe link for a user and category (a 45-character code, 30 days). */
const unsubscribeLink = (context: RequestContext, project: ProjectRecord, userId: string, categoryId: string): string => {
  const record = VerificationCodes.create(context, project, {
    purpose: "unsubscribe_link",
    userId,
    email: null,
    lifetimeMillis: unsubscribeLinkLifetimeMillis
  })
  record.notificationCategoryId = categoryId
  return `${context.apiBase}/api/v1/emails/unsubscribe-link?code=${record.code}`
}

/** Renders a row (backend `lib/email-queue-step.tsx`: two passes when the category can be turned off). */
const render = (context: RequestContext, project: ProjectRecord, record: QueuedEmailRecord): Effect.Effect<QueuedEmailRendering, string> =>
  Effect.gen(function* () {
    const startedAtMillis = context.nowMillis
    const user = userOf(project, record.to)
    const displayName = user?.displayName ?? null
    const options = (link: string | undefined): RenderOptions => ({
      user: { displayName },
      project: { displayName: project.displayName },
      // the renderer turns JSON values (objects and arrays included) into its own values
      variables: {
        projectDisplayName: project.displayName,
        userDisplayName: displayName ?? "",
        ...(record.variables as Readonly<Record<string, string | number | boolean | null>>)
      },
      themeProps: { projectLogos: projectLogos(project), ...(link === undefined ? {} : { unsubscribeLink: link }) }
    })
    const theme = themeSource(project, record.themeId ?? false)
    const first = yield* renderForOutbox(record.tsxSource, theme, options(undefined))
    const category = record.overrideNotificationCategoryId !== undefined
      ? NotificationCategories.categories.find((candidate) => candidate.id === record.overrideNotificationCategoryId)
      : NotificationCategories.categories.find((candidate) => candidate.name === first.notificationCategory)
    const rendered = category !== undefined && category.canDisable && "userId" in record.to
      ? yield* renderForOutbox(record.tsxSource, theme, options(unsubscribeLink(context, project, record.to.userId, category.id)))
      : first
    return {
      subject: record.overrideSubject ?? rendered.subject ?? "",
      html: rendered.html,
      text: rendered.text,
      notificationCategoryId: category?.id ?? null,
      isTransactional: category?.name === "Transactional",
      startedAtMillis,
      renderedAtMillis: context.nowMillis
    }
  })

/** The addresses a row goes to, or why it is skipped (backend `lib/email-queue-step.tsx` `resolveRecipientEmails`). */
const resolveRecipient = (
  project: ProjectRecord,
  record: QueuedEmailRecord,
  rendering: QueuedEmailRendering
): { readonly emails: ReadonlyArray<string> } | { readonly skip: string } => {
  const to = record.to
  if (to.type === "custom-emails") return to.emails.length === 0 ? { skip: "NO_EMAIL_PROVIDED" } : { emails: to.emails }
  const user = project.users.get(to.userId)
  if (user === undefined) return { skip: "USER_ACCOUNT_DELETED" }
  let emails: ReadonlyArray<string>
  if (to.type === "user-custom-emails") {
    emails = to.emails.length > 0 ? to.emails : user.primaryEmail !== null ? [user.primaryEmail] : []
    if (emails.length === 0) return { skip: "NO_EMAIL_PROVIDED" }
  } else {
    if (user.primaryEmail === null) return { skip: "USER_HAS_NO_PRIMARY_EMAIL" }
    emails = [user.primaryEmail]
  }
  const category = NotificationCategories.categories.find((candidate) => candidate.id === rendering.notificationCategoryId)
  if (category !== undefined && category.canDisable && !NotificationCategories.isEnabled(user, category)) return { skip: "USER_UNSUBSCRIBED" }
  return { emails }
}

/**
 * The queue step for one project: renders the pending rows not rendered yet, and sends (or skips)
 * those whose time has come and that are not paused.
 */
export const runQueueStep = (context: RequestContext, project: ProjectRecord): Effect.Effect<void> =>
  Effect.gen(function* () {
    for (const record of project.emailQueue.values()) {
      if (record.progress.kind !== "pending" || record.isPaused) continue
      let rendering = record.progress.rendering
      if (rendering === undefined) {
        const startedAtMillis = context.nowMillis
        const rendered = yield* Effect.result(render(context, project, record))
        if (Result.isFailure(rendered)) {
          record.progress = { kind: "render-error", error: rendered.failure, startedAtMillis, renderedAtMillis: context.nowMillis }
          continue
        }
        rendering = rendered.success
        record.progress = { kind: "pending", rendering }
      }
      if (record.scheduledAtMillis > context.nowMillis) continue
      const resolved = resolveRecipient(project, record, rendering)
      if ("skip" in resolved) {
        record.progress = { kind: "skipped", reason: resolved.skip, atMillis: context.nowMillis, rendering }
        record.updatedAtMillis = context.nowMillis
        continue
      }
      let entry: OutboxEntry | undefined
      for (const email of resolved.emails) {
        entry = Outbox.send(context.env.state, {
          projectId: project.id,
          to: email,
          subject: rendering.subject,
          text: rendering.text,
          html: rendering.html,
          kind: "sent_email",
          code: null,
          link: null,
          sentAtMillis: context.nowMillis
        })
      }
      record.progress = { kind: "sent", rendering, sentAtMillis: context.nowMillis, outboxEntryId: entry!.id }
      record.updatedAtMillis = context.nowMillis
    }
  })

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

const renderedFields = (rendering: QueuedEmailRendering, record: QueuedEmailRecord) => ({
  hasRendered: true as const,
  startedRenderingAt: new Date(rendering.startedAtMillis),
  renderedAt: new Date(rendering.renderedAtMillis),
  subject: rendering.subject,
  html: rendering.html,
  text: rendering.text,
  isTransactional: rendering.isTransactional,
  isHighPriority: record.isHighPriority,
  notificationCategoryId: rendering.notificationCategoryId
})

/** The service's status of a row (its database status, e.g. `SCHEDULED`). */
export const databaseStatus = (record: QueuedEmailRecord, nowMillis: number): string => view(record, nowMillis).status.toUpperCase().replace(/-/g, "_")

/** The statuses whose rows may still be changed (backend `emails/outbox/crud.tsx` `EDITABLE_STATUSES`). */
export const editableStatuses: ReadonlySet<string> = new Set(["paused", "preparing", "rendering", "render-error", "scheduled", "queued", "server-error"])

/** A row as `/emails/outbox` answers it (backend `emails/outbox/crud.tsx` `prismaModelToCrud`). */
export const view = (record: QueuedEmailRecord, nowMillis: number): OutboxEmail => {
  const base = {
    id: record.id,
    createdAt: new Date(record.createdAtMillis),
    updatedAt: new Date(record.updatedAtMillis),
    tsxSource: record.tsxSource,
    themeId: record.themeId,
    to: record.to,
    variables: record.variables as Mutable<Record<string, unknown>>,
    skipDeliverabilityCheck: record.skipDeliverabilityCheck,
    scheduledAt: new Date(record.scheduledAtMillis),
    createdWith: record.createdWith,
    emailDraftId: record.emailDraftId,
    emailProgrammaticCallTemplateId: record.templateId,
    sendRetries: 0,
    nextSendRetryAt: null,
    sendAttemptErrors: null,
    isPaused: false as const,
    hasRendered: false as const,
    hasDelivered: false as const
  }
  const progress = record.progress
  switch (progress.kind) {
    case "pending": {
      if (record.isPaused) return { ...base, status: "paused", simpleStatus: "in-progress", isPaused: true }
      if (progress.rendering === undefined) return { ...base, status: "preparing", simpleStatus: "in-progress" }
      return {
        ...base,
        ...renderedFields(progress.rendering, record),
        status: record.scheduledAtMillis > nowMillis ? "scheduled" : "queued",
        simpleStatus: "in-progress"
      }
    }
    case "render-error":
      if (record.isPaused) return { ...base, status: "paused", simpleStatus: "in-progress", isPaused: true }
      return {
        ...base,
        status: "render-error",
        simpleStatus: "error",
        startedRenderingAt: new Date(progress.startedAtMillis),
        renderedAt: new Date(progress.renderedAtMillis),
        renderError: renderErrorText
      }
    case "skipped":
      return {
        ...base,
        ...(progress.rendering === undefined ? {} : renderedFields(progress.rendering, record)),
        hasRendered: progress.rendering !== undefined,
        status: "skipped",
        simpleStatus: "ok",
        skippedAt: new Date(progress.atMillis),
        skippedReason: progress.reason,
        skippedDetails: {}
      }
    case "sent":
      return {
        ...base,
        ...renderedFields(progress.rendering, record),
        status: "sent",
        simpleStatus: "ok",
        startedSendingAt: new Date(progress.sentAtMillis),
        deliveredAt: new Date(progress.sentAtMillis),
        hasDelivered: true,
        canHaveDeliveryInfo: false
      }
  }
}

/**
 * An e-mail the emulator sent outside the queue (a verification, a password reset, a sign-in
 * code…) as the outbox answers it: `sent`, to its address, from the project's template for its
 * kind when there is one.
 */
export const viewSent = (project: ProjectRecord, entry: OutboxEntry): OutboxEmail => {
  const templateId = (defaultTemplateIds as Readonly<Record<string, string>>)[entry.kind] ?? null
  const at = new Date(entry.sentAtMillis)
  return {
    id: entry.id,
    createdAt: at,
    updatedAt: at,
    tsxSource: (templateId === null ? undefined : project.emailTemplates.get(templateId)?.tsxSource) ?? templateFromHtml(entry.html),
    themeId: null,
    to: { type: "custom-emails", emails: [entry.to] },
    variables: {},
    skipDeliverabilityCheck: false,
    scheduledAt: at,
    createdWith: "programmatic-call",
    emailDraftId: null,
    emailProgrammaticCallTemplateId: templateId,
    sendRetries: 0,
    nextSendRetryAt: null,
    sendAttemptErrors: null,
    isPaused: false,
    hasRendered: true,
    startedRenderingAt: at,
    renderedAt: at,
    subject: entry.subject,
    html: entry.html,
    text: entry.text,
    isTransactional: true,
    isHighPriority: false,
    notificationCategoryId: NotificationCategories.categories[0]!.id,
    status: "sent",
    simpleStatus: "ok",
    startedSendingAt: at,
    deliveredAt: at,
    hasDelivered: true,
    canHaveDeliveryInfo: false
  }
}

/** Every e-mail of a project's outbox, newest first (ties: by id, as the service orders them). */
export const outboxOf = (state: EmulatorState, project: ProjectRecord, nowMillis: number): ReadonlyArray<OutboxEmail> => {
  const queued = [...project.emailQueue.values()].map((record) => view(record, nowMillis))
  // test e-mails go straight to the SMTP server in the service (internal/send-test-email/route.tsx), not through its outbox
  const others = Outbox.list(state, { projectId: project.id })
    .filter((entry) => entry.kind !== "sent_email" && entry.kind !== "test_email")
    .map((entry) => viewSent(project, entry))
  return [...queued, ...others].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}

const hour = 60 * 60 * 1000

/** The windows of the delivery statistics; a month is 30 days here (the service's SQL uses `INTERVAL '1 month'`). */
export const deliveryWindows = { hour, day: 24 * hour, week: 7 * 24 * hour, month: 30 * 24 * hour } as const

/**
 * E-mails the emulator sent for a project through the outbox in the window before `nowMillis`
 * (test e-mails are not counted: the service sends them outside its outbox; none bounces nor is
 * marked as spam).
 */
export const sentWithin = (state: EmulatorState, projectId: string, nowMillis: number, windowMillis: number): number =>
  Outbox.list(state, { projectId }).filter((entry) => entry.kind !== "test_email" && entry.sentAtMillis >= nowMillis - windowMillis).length

/** The service's default hourly capacity (`STACK_DEFAULT_EMAIL_CAPACITY_PER_HOUR`, 200). */
export const defaultCapacityPerHour = 200

/** How long a capacity boost lasts (backend `emails/capacity-boost/route.tsx`: 4 hours). */
export const boostDurationMillis = 4 * hour

/**
 * The capacity for the statistics (backend `lib/email-delivery-stats.tsx` `calculateCapacityRate`;
 * no bounce nor spam here, so the penalty factor is 1; a running boost multiplies the rate by 4).
 */
export const capacityOf = (monthSent: number, boostExpiresAtMillis: number | undefined, nowMillis: number) => {
  const penaltyFactor = 1
  const hourlyBaseline = defaultCapacityPerHour + (4 * monthSent) / 30 / 24
  const ratePerHour = Math.max(hourlyBaseline * penaltyFactor, defaultCapacityPerHour / 4)
  const isBoostActive = boostExpiresAtMillis !== undefined && boostExpiresAtMillis > nowMillis
  const boostMultiplier = isBoostActive ? 4 : 1
  return {
    ratePerSecond: (ratePerHour / 60 / 60) * boostMultiplier,
    boostMultiplier,
    penaltyFactor,
    isBoostActive,
    boostExpiresAt: boostExpiresAtMillis === undefined ? null : new Date(boostExpiresAtMillis).toISOString()
  }
}
