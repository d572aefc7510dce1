/**
 * Sending a test e-mail through an SMTP configuration, the log of e-mails the project sent
 * (PROTOCOL.md §3.0 "Sent e-mail", §3.7; wire samples emails/*), a test webhook and a sign-in
 * invitation (the official `sendTestWebhook`, `sendSignInInvitationEmail`). Admin access only.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { listSentEndpoint, sendSignInInvitationEndpoint, sendTestEmailEndpoint, sendTestWebhookEndpoint, SmtpConfig } from "./internal/emails.js"

/** The domain's schemas, defined with its wire definitions (`internal/emails.ts`). */
export { SentEmail, SmtpConfig, TestEmailResult, TestWebhookResult } from "./internal/emails.js"

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
