/**
 * Sending a test e-mail through an SMTP configuration, the log of e-mails the project sent
 * (PROTOCOL.md §3.0 "Sent e-mail", §3.7; wire samples emails/*), a test webhook and a sign-in
 * invitation (the official `sendTestWebhook`, `sendSignInInvitationEmail`), and the managed e-mail
 * provider's set-up (`setupManagedEmailProvider`, `checkManagedEmailStatus`,
 * `listManagedEmailDomains`, `applyManagedEmailProvider`: the service creates the subdomain at its
 * e-mail provider, the project delegates it to the name servers it answers, and once verified the
 * domain is applied as the project's e-mail server). Admin access only.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import {
  listSentEndpoint,
  managedApplyEndpoint,
  managedCheckEndpoint,
  managedListEndpoint,
  managedSetupEndpoint,
  sendSignInInvitationEndpoint,
  sendTestEmailEndpoint,
  sendTestWebhookEndpoint,
  SmtpConfig
} from "./internal/emails.js"

/** The domain's schemas, defined with its wire definitions (`internal/emails.ts`). */
export { ManagedEmailDomain, ManagedEmailDomainStatus, SentEmail, SmtpConfig, TestEmailResult, TestWebhookResult } from "./internal/emails.js"

/**
 * Sends a test e-mail to `recipientEmail` through the given SMTP configuration. A failure to send
 * (including the service's 10 s timeout) is an answer, not an error: `{ success: false,
 * errorMessage }`. `POST /internal/send-test-email`; needs `AdminAccess`. A port outside 0–65535
 * or a recipient / sender that is not an e-mail address fails with `SchemaError`.
 */
export const sendTestEmail = Effect.fn("Emails.sendTestEmail")(function* (input: {
  readonly recipientEmail: string
  readonly emailConfig: SmtpConfig
}) {
  return yield* Endpoint.call(sendTestEmailEndpoint, { payload: input })
})

/**
 * The e-mails the project sent, newest first (the newest 100 only; not paginated).
 * `GET /internal/emails`; needs `AdminAccess`.
 */
export const listSentEmails = Effect.fn("Emails.listSentEmails")(function* () {
  const answer = yield* Endpoint.call(listSentEndpoint, {})
  return answer.items
})

/**
 * Sends the `stack.test` event to one of the project's webhook endpoints (by its Svix endpoint id).
 * A failure to deliver is an answer, not an error: `{ success: false, errorMessage }` (e.g.
 * "Endpoint not found. Make sure it still exists."). `POST /internal/send-test-webhook`; needs
 * `AdminAccess`.
 */
export const sendTestWebhook = Effect.fn("Emails.sendTestWebhook")(function* (input: { readonly endpointId: string }) {
  return yield* Endpoint.call(sendTestWebhookEndpoint, { payload: { endpointId: input.endpointId } })
})

/**
 * E-mails an invitation to sign in to the project (the project's "Sign In Invitation" template)
 * to `email`, with a link to `callbackUrl`. `POST /internal/send-sign-in-invitation`; needs
 * `AdminAccess`. Fails with `RedirectUrlNotWhitelisted` (the URL is not a trusted domain of the
 * project) or `SchemaError` (not an e-mail address or URL).
 */
export const sendSignInInvitationEmail = Effect.fn("Emails.sendSignInInvitationEmail")(function* (email: string, callbackUrl: string) {
  yield* Endpoint.call(sendSignInInvitationEndpoint, { payload: { email, callbackUrl } })
})

/**
 * Starts setting up a managed e-mail domain (`subdomain`, e.g. `mail.example.com`, sending as
 * `senderLocalPart@subdomain`) and answers it with the name servers to delegate the subdomain
 * to; the same subdomain and sender again answer the existing one. `POST
 * /internal/emails/managed-onboarding/setup`; needs `AdminAccess`. Fails with `HttpError` 400 (not
 * a domain name, an invalid sender) or 409 (the subdomain is set up with another sender).
 */
export const setupManagedEmailProvider = Effect.fn("Emails.setupManagedEmailProvider")(function* (input: {
  readonly subdomain: string
  readonly senderLocalPart: string
}) {
  return yield* Endpoint.call(managedSetupEndpoint, { payload: input })
})

/**
 * The state of a managed e-mail domain set up with {@link setupManagedEmailProvider}.
 * `POST /internal/emails/managed-onboarding/check`; needs `AdminAccess`. Fails with `HttpError`
 * 404 when the project has no such domain.
 */
export const checkManagedEmailStatus = Effect.fn("Emails.checkManagedEmailStatus")(function* (input: {
  readonly domainId: string
  readonly subdomain: string
  readonly senderLocalPart: string
}) {
  const answer = yield* Endpoint.call(managedCheckEndpoint, { payload: input })
  return answer.status
})

/** The project's managed e-mail domains, the applied one first. `GET /internal/emails/managed-onboarding/list`; needs `AdminAccess`. */
export const listManagedEmailDomains = Effect.fn("Emails.listManagedEmailDomains")(function* () {
  const answer = yield* Endpoint.call(managedListEndpoint, {})
  return answer.items
})

/**
 * Makes a verified managed domain the project's e-mail server (the project no longer uses the
 * shared one). `POST /internal/emails/managed-onboarding/apply`; needs `AdminAccess`. Fails with
 * `HttpError` 404 (no such domain) or 409 (not verified yet).
 */
export const applyManagedEmailProvider = Effect.fn("Emails.applyManagedEmailProvider")(function* (input: { readonly domainId: string }) {
  yield* Endpoint.call(managedApplyEndpoint, { payload: input })
})
