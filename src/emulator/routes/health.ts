/**
 * `GET /api/v1`: the welcome text, echoing the resolved authentication (PROTOCOL.md §1.1).
 *
 * @module
 */
import { Effect } from "effect"
import * as Endpoints from "../Endpoints.js"
import type { RequestContext } from "../RequestContext.js"
import { route } from "../Router.js"

const describeAuth = (context: RequestContext): string => {
  const auth = context.auth
  if (auth === null) return "None"
  const type = auth.type.charAt(0).toUpperCase() + auth.type.slice(1)
  const user = auth.user === undefined ? "None" : (auth.user.primaryEmail ?? auth.user.id)
  return `${type}\n  Project: ${auth.project.id}\n  User: ${user}`
}

/** The welcome route. */
export const routes = [
  route(
    Endpoints.welcome,
    (_input, context) =>
      Effect.succeed(
        `Welcome to the Stack API endpoint! Please refer to the documentation at https://docs.stack-auth.com.\n\nAuthentication: ${describeAuth(context)}`
      ),
    { responseType: "text" }
  )
]
