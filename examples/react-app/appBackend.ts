/**
 * The demo app's own backend: the one thing the browser may not do itself. Granting and revoking a
 * team permission needs server access (`POST`/`DELETE /team-permissions/…` accept only a secret
 * server key), and a secret key never goes to a browser. So the page asks this backend, on the
 * app's own origin, with the signed-in user's access token; the backend
 *
 * 1. verifies the token locally (`AccessTokenVerifier.verifyAccessToken`, against the project's
 *    JWKS) — the caller is the token's user (`userId`);
 * 2. checks that the caller may manage the team's permissions: they hold {@link managerPermission}
 *    there (`ServerPermissions.hasTeamPermission`, containment included);
 * 3. does the change with server access (`ServerPermissions.grantTeamPermission` /
 *    `revokeTeamPermission`), or lists a member's permissions.
 *
 * Routes (JSON, `Authorization: Bearer <access token>`):
 * - `GET    /app-api/teams/{teamId}/members/{userId}/permissions` → `{ "permissions": ["team_admin", …] }` (direct grants)
 * - `POST   /app-api/teams/{teamId}/members/{userId}/permissions/{permissionId}` → the same list after granting
 * - `DELETE /app-api/teams/{teamId}/members/{userId}/permissions/{permissionId}` → the same list after revoking
 *
 * A failure answers `{ "error": { "code", "message" } }` with 401 (no or bad token), 403 (caller
 * may not manage the team), 404 (unknown permission or member) or 400 (malformed request).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from "node:http"
import { Effect, Layer, ManagedRuntime, Result } from "effect"
import { AccessTokenVerifier, ServerPermissions, Stack } from "stack-auth-effect"

/** The permission a caller needs in a team to change its members' permissions. */
export const managerPermission = "team_admin"

/** The path prefix of the backend's routes. */
export const appApiPrefix = "/app-api/"

/** Where the backend reaches the service, with server access. */
export interface AppBackendOptions {
  readonly baseUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
}

/** A refusal of the backend: HTTP status, a code for the page, a message for developers. */
class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string
  ) {}
}

/** Any failure of a route as the refusal the page gets. */
const toRefusal = (error: Refusal | { readonly _tag: string; readonly message: string }): Refusal => {
  if (error instanceof Refusal) return error
  switch (error._tag) {
    case "PermissionNotFound":
    case "TeamMembershipNotFound":
    case "TeamNotFound":
      return new Refusal(404, error._tag, error.message)
    case "InvalidArgument":
    case "WrongPermissionScope":
      return new Refusal(400, error._tag, error.message)
    default:
      return new Refusal(502, error._tag, "The service could not be reached or answered unexpectedly.")
  }
}

const routePattern = /^\/app-api\/teams\/([0-9a-f-]{36})\/members\/([0-9a-f-]{36})\/permissions(?:\/([A-Za-z0-9_$:.%-]{1,300}))?$/

/** A path segment decoded (`%24update_team` → `$update_team`), `undefined` when it is not valid percent-encoding. */
const decodeSegment = (segment: string): string | undefined => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

const send = (response: ServerResponse, status: number, body: unknown) => {
  response.statusCode = status
  response.setHeader("content-type", "application/json; charset=utf-8")
  response.setHeader("cache-control", "no-store")
  response.end(JSON.stringify(body))
}

/**
 * The backend as a Connect middleware (Vite's `server.middlewares`): answers under
 * {@link appApiPrefix}, passes every other request on. `close` stops its runtime.
 */
export const makeAppBackend = (options: AppBackendOptions) => {
  const runtime = ManagedRuntime.make(
    AccessTokenVerifier.layer().pipe(
      Layer.provideMerge(
        Stack.layerServer({
          baseUrl: options.baseUrl,
          projectId: options.projectId,
          publishableClientKey: options.publishableClientKey,
          secretServerKey: options.secretServerKey,
          tokenStore: "memory",
          // every request reads the service afresh: nothing of one caller is kept for another
          queryCache: false
        })
      )
    )
  )

  const directPermissions = (teamId: string, userId: string) =>
    Effect.map(ServerPermissions.listTeamPermissions(teamId, userId, { recursive: false }), (items) => ({
      permissions: items.map((item) => item.id)
    }))

  const handle = (method: string, path: string, authorization: string | undefined) =>
    Effect.gen(function* () {
      const match = routePattern.exec(path)
      if (match === null) return yield* Effect.fail(new Refusal(404, "NotFound", "No such route."))
      const [, teamId, userId, encodedPermission] = match as unknown as [string, string, string, string | undefined]
      const permissionId = encodedPermission === undefined ? undefined : decodeSegment(encodedPermission)
      if (encodedPermission !== undefined && permissionId === undefined) {
        return yield* Effect.fail(new Refusal(400, "InvalidArgument", "The permission id is not valid percent-encoding."))
      }
      const token = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1]
      if (token === undefined) return yield* Effect.fail(new Refusal(401, "NotSignedIn", "An access token is required."))
      const claims = yield* Effect.mapError(
        AccessTokenVerifier.verifyAccessToken(token),
        (error) => new Refusal(401, "NotSignedIn", `The access token was refused: ${error._tag}.`)
      )
      const allowed = yield* ServerPermissions.hasTeamPermission(teamId, claims.userId, managerPermission)
      if (!allowed) return yield* Effect.fail(new Refusal(403, "PermissionDenied", `Managing permissions needs ${managerPermission} in the team.`))
      if (method === "GET" && permissionId === undefined) return yield* directPermissions(teamId, userId)
      if (permissionId === undefined || (method !== "POST" && method !== "DELETE")) {
        return yield* Effect.fail(new Refusal(405, "MethodNotAllowed", "Use GET on the list, POST or DELETE on a permission."))
      }
      if (method === "POST") yield* ServerPermissions.grantTeamPermission(teamId, userId, permissionId)
      else yield* Effect.catchTag(ServerPermissions.revokeTeamPermission(teamId, userId, permissionId), "TeamPermissionNotFound", () => Effect.void)
      return yield* directPermissions(teamId, userId)
    }).pipe(Effect.mapError(toRefusal), Effect.result)

  const middleware = (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    const path = (request.url ?? "").split("?")[0] ?? ""
    if (!path.startsWith(appApiPrefix)) return next()
    runtime.runPromise(handle(request.method ?? "GET", path, request.headers.authorization)).then(
      (result) =>
        Result.isSuccess(result)
          ? send(response, 200, result.success)
          : send(response, result.failure.status, { error: { code: result.failure.code, message: result.failure.message } }),
      (defect: unknown) => {
        console.error("[app-api] failed:", defect)
        send(response, 500, { error: { code: "InternalError", message: "The app's backend failed." } })
      }
    )
  }

  return { middleware, close: () => runtime.dispose() }
}
