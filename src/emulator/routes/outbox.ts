/**
 * `GET /api/v1/emulator/outbox?email=&project_id=` (emulator only, no auth): the e-mails the
 * emulator "sent", oldest first, with the code and link each carries. Only for callers without
 * an `Origin` header and pages on a loopback origin (`BrowserAccess.ts`): other pages get 403.
 *
 * @module
 */
import { Effect } from "effect"
import * as Endpoints from "../Endpoints.js"
import * as Outbox from "../Outbox.js"
import { route } from "../Router.js"

/** The outbox route. */
export const routes = [
  route(
    Endpoints.outbox,
    ({ query }, context) =>
      Effect.succeed({
        items: Outbox.list(context.env.state, { email: query.email, projectId: query.project_id }).map((entry) => ({
          id: entry.id,
          to: entry.to,
          subject: entry.subject,
          code: entry.code,
          link: entry.link,
          sent_at_millis: entry.sentAtMillis
        }))
      }),
    { skipProjectAuth: true }
  )
]
