/**
 * The verification e-mail of a user's e-mail address: a new `email_verification` code, "sent"
 * into the outbox with a link to the app's callback. The e-mail is the project's "Email
 * Verification" template rendered (subject, HTML and text, as the service's e-mail queue renders
 * it, `emailVerificationLink` the link); a template that no longer renders falls back to a plain
 * e-mail with the same link (the service would record a render error and send nothing).
 *
 * @module
 */
import { Effect } from "effect"
import { emailFromTemplate, escapeHtml } from "./EmailTemplates.js"
import * as Outbox from "./Outbox.js"
import type { RequestContext } from "./RequestContext.js"
import type { ProjectRecord, UserRecord } from "./State.js"
import * as VerificationCodes from "./VerificationCodes.js"

/** "Sends" the verification e-mail of a user's primary e-mail, linking to `callbackUrl?code=…` (the code is made at once, the e-mail once rendered). */
export const sendVerificationEmail = (
  context: RequestContext,
  project: ProjectRecord,
  user: UserRecord,
  email: string,
  callbackUrl: string
): Effect.Effect<void> => {
  const { code } = VerificationCodes.create(context, project, { purpose: "email_verification", userId: user.id, email })
  const link = Outbox.linkWithCode(callbackUrl, code)
  return Effect.map(
    emailFromTemplate(project, "email_verification", user, { emailVerificationLink: link }, {
      subject: `Verify your email at ${project.displayName}`,
      text: `Please verify your email address by opening this link:\n\n${link}\n\nIf you did not sign up, you can ignore this e-mail.`,
      html: `<p>Please verify your email address by opening this link:</p><p><a href="${
        escapeHtml(link)
      }">Verify my e-mail</a></p><p>If you did not sign up, you can ignore this e-mail.</p>`
    }, context.env.settings.emailRenderLimits),
    (rendered) =>
      Outbox.send(context.env.state, {
        projectId: project.id,
        to: email,
        ...rendered,
        kind: "email_verification",
        code,
        link,
        sentAtMillis: context.nowMillis
      })
  )
}
