/**
 * Sending a test e-mail through an SMTP configuration, and the log of e-mails the project sent
 * (PROTOCOL.md §3.0 "Sent e-mail", §3.7; wire samples emails/*). Admin access only.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Endpoint from "../core/Endpoint.js"
import { listSentEndpoint, sendTestEmailEndpoint, SmtpConfig } from "./internal/emails.js"

/** The domain's schemas, defined with its wire definitions (`internal/emails.ts`). */
export { SentEmail, SmtpConfig, TestEmailResult } from "./internal/emails.js"

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
