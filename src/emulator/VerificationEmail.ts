/**
 * The verification e-mail of a user's e-mail address: a new `email_verification` code, "sent"
 * into the outbox with a link to the app's callback.
 *
 * @module
 */
import * as Outbox from "./Outbox.js"
import type { RequestContext } from "./RequestContext.js"
import type { ProjectRecord, UserRecord } from "./State.js"
import * as VerificationCodes from "./VerificationCodes.js"

/** "Sends" the verification e-mail of a user's primary e-mail, linking to `callbackUrl?code=…`. */
export const sendVerificationEmail = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  email: string,
  callbackUrl: string
): void => {
  const { code } = VerificationCodes.create(context, project, { purpose: "email_verification", userId: user.id, email })
  const link = Outbox.linkWithCode(callbackUrl, code)
  Outbox.send(context.env.state, {
    projectId: project.id,
    to: email,
    subject: `Verify your email at ${project.displayName}`,
    text: `Please verify your email address by opening this link:\n\n${link}\n\nIf you did not sign up, you can ignore this e-mail.`,
    html: `<p>Please verify your email address by opening this link:</p><p><a href="${link}">Verify my e-mail</a></p><p>If you did not sign up, you can ignore this e-mail.</p>`,
    kind: "email_verification",
    code,
    link,
    sentAtMillis: context.nowMillis
  })
}

