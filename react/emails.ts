"use client"
/**
 * Hooks over the project's e-mail (the official `useEmailDeliveryStats`, `useEmailThemes`,
 * `useEmailTheme(id)`, `useEmailTemplates`, `useEmailDrafts`, `useEmailPreview`), for apps whose
 * runtime holds the server or admin key. `makeStackHooks(runtime)` returns the delivery
 * statistics' hooks only when the runtime provides `ServerAccess`, and the others only when it
 * provides `AdminAccess` (a runtime of `Stack.layerAdmin`); a client app does not compile them.
 *
 * Each read goes through the SDK's query cache, so the module's writes refresh them
 * (`EmailThemes.update` the themes and previews, `ServerEmails.sendEmail` the statistics and the
 * drafts' `sentAt`…).
 *
 * @module
 */
import type { AdminAccess, ServerAccess } from "../src/core/Access.js"
import type { ClientServices } from "../src/cache/ClientServices.js"
import * as EmailDrafts from "../src/emails/EmailDrafts.js"
import * as EmailTemplates from "../src/emails/EmailTemplates.js"
import * as EmailThemes from "../src/emails/EmailThemes.js"
import * as ServerEmails from "../src/emails/ServerEmails.js"
import type { QueryHooks } from "./domain.js"

/** The services the delivery statistics' hooks need: a Stack layer's, plus `ServerAccess`. */
export type EmailServerServices = ClientServices | ServerAccess

/** The services the admin e-mail hooks need: a Stack layer's, plus `AdminAccess`. */
export type EmailAdminServices = ClientServices | AdminAccess

/** The delivery statistics' hooks, made of `hooks` typed by a runtime with server access. */
export const makeEmailServerHooks = (hooks: QueryHooks<EmailServerServices>) => {
  const { useStackQuery: query, useStackSuspenseQuery: suspenseQuery } = hooks
  return {
    /** The project's delivery statistics and capacity (`ServerEmails.getDeliveryStats`, cached; refreshed by `sendEmail`). */
    useEmailDeliveryStats: () => query(ServerEmails.getDeliveryStats(), []),
    /** {@link useEmailDeliveryStats} for Suspense. */
    useSuspenseEmailDeliveryStats: () => suspenseQuery(ServerEmails.getDeliveryStats(), [])
  }
}

/** The admin e-mail hooks, made of `hooks` typed by a runtime with admin access. */
export const makeEmailAdminHooks = (hooks: QueryHooks<EmailAdminServices>) => {
  const { useStackQuery: query, useStackSuspenseQuery: suspenseQuery } = hooks
  return {
    /** The project's themes, id and name (`EmailThemes.list`, cached). */
    useEmailThemes: () => query(EmailThemes.list(), []),
    /** {@link useEmailThemes} for Suspense. */
    useSuspenseEmailThemes: () => suspenseQuery(EmailThemes.list(), []),
    /** One theme with its source (`EmailThemes.get`, cached; fails with `EmailThemeNotFound`). */
    useEmailTheme: (themeId: string) => query(EmailThemes.get(themeId), [themeId]),
    /** {@link useEmailTheme} for Suspense. */
    useSuspenseEmailTheme: (themeId: string) => suspenseQuery(EmailThemes.get(themeId), [themeId]),
    /** The project's e-mail templates (`EmailTemplates.list`, cached). */
    useEmailTemplates: () => query(EmailTemplates.list(), []),
    /** {@link useEmailTemplates} for Suspense. */
    useSuspenseEmailTemplates: () => suspenseQuery(EmailTemplates.list(), []),
    /** The project's drafts, newest change first (`EmailDrafts.list`, cached). */
    useEmailDrafts: () => query(EmailDrafts.list(), []),
    /** {@link useEmailDrafts} for Suspense. */
    useSuspenseEmailDrafts: () => suspenseQuery(EmailDrafts.list(), []),
    /** A template rendered with a theme (`EmailThemes.preview`, cached by its options). */
    useEmailPreview: (options: EmailThemes.PreviewOptions) => query(EmailThemes.preview(options), [JSON.stringify(options)]),
    /** {@link useEmailPreview} for Suspense. */
    useSuspenseEmailPreview: (options: EmailThemes.PreviewOptions) => suspenseQuery(EmailThemes.preview(options), [JSON.stringify(options)])
  }
}

/** The hooks {@link makeEmailServerHooks} makes (from `makeStackHooks(runtime)` with server access). */
export type EmailServerHooks = ReturnType<typeof makeEmailServerHooks>

/** The hooks {@link makeEmailAdminHooks} makes (from `makeStackHooks(runtime)` with admin access). */
export type EmailAdminHooks = ReturnType<typeof makeEmailAdminHooks>
