/**
 * JWKS of a project (PROTOCOL.md §2.4), no auth: normal keys, plus restricted keys with
 * `include_restricted=true`, plus restricted and anonymous keys with `include_anonymous=true`;
 * `Cache-Control: public, max-age=3600`; unknown project → 404 text. The anonymous issuer path
 * redirects (307) to the JWKS with `include_anonymous=true`.
 *
 * @module
 */
import { Effect } from "effect"
import { publicKeySet } from "../AccessTokens.js"
import * as Endpoints from "../Endpoints.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"

/** The JWKS routes. */
export const routes = [
  route(
    Endpoints.jwks,
    ({ params, query }, context) => {
      const project = context.env.state.projects.get(params.project_id)
      if (project === undefined) return Effect.fail(new TextFailure({ status: 404, text: "Project not found" }))
      return Effect.succeed(
        publicKeySet(project.signingKeys, {
          includeAnonymous: query.include_anonymous ?? false,
          includeRestricted: query.include_restricted ?? false
        })
      )
    },
    { cacheControl: "public, max-age=3600" }
  ),
  route(Endpoints.jwksAnonymousAlias, ({ params }, context) =>
    Effect.succeed(
      new Response(null, {
        status: 307,
        headers: {
          location: `${context.apiBase}/api/v1/projects/${encodeURIComponent(params.project_id)}/.well-known/jwks.json?include_anonymous=true`
        }
      })
    ))
]
