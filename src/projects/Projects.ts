/**
 * Projects (PROTOCOL.md §3.0 "Project", §3.6, §3.7): the current project's client view, its admin
 * view with config updates and deletion (admin access: super secret admin key or an owner's admin
 * access token), and the projects owned by a user of the `internal` project.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { ConfigurationError } from "../core/Errors.js"
import { ExpectedInternalProject } from "../core/KnownErrors.js"
import { StackClient } from "../core/StackClient.js"
import { AdminProjectUpdate, OwnedProjectCreate, createOwnedEndpoint, deleteCurrentEndpoint, getCurrentAdminEndpoint, getCurrentEndpoint, listOwnedEndpoint, updateCurrentEndpoint } from "./internal/projects.js"

/** The domain's schemas, defined with its wire definitions (`internal/projects.ts`). */
export { AdminProject, AdminProjectConfig, AdminProjectConfigUpdate, AdminProjectUpdate, ClientProject, ClientProjectConfig, EmailConfig, IdRef, OAuthAccountMergeStrategy, OAuthProviderConfig, OAuthProviderId, OAuthProviderUpdate, OnboardingStatus, OwnedProjectCreate, SharedEmailConfig, SharedOAuthProviderUpdate, StandardEmailConfig, StandardOAuthProviderUpdate, TrustedDomain } from "./internal/projects.js"

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/** The cache key of the current project, client view (project-wide: a session change keeps it). */
export const cacheKey: QueryCache.Key = ["project", "current"]

/**
 * The current project as any client sees it (name, sign-in switches, enabled OAuth providers as
 * `config.oauthProviders`, trusted domains). `GET /projects/current`, through the query cache
 * (key {@link cacheKey}); client access, no user needed.
 */
export const getCurrent = Effect.fn("Projects.getCurrent")(function* () {
  return yield* QueryCache.cached(cacheKey, Endpoint.call(getCurrentEndpoint, {}))
})

/**
 * The current project, admin view (full config). `GET /internal/projects/current`; needs
 * `AdminAccess` (admin key, or the admin access token of an owner).
 */
export const getCurrentAdmin = Effect.fn("Projects.getCurrentAdmin")(function* () {
  return yield* Endpoint.call(getCurrentAdminEndpoint, {})
})

/**
 * Changes the current project (name, description, production mode, config switches, trusted
 * domains, OAuth providers, e-mail server, merge strategy, default permissions) and returns it.
 * Arrays replace the whole list. `PATCH /internal/projects/current`; needs `AdminAccess`.
 */
export const updateCurrent = Effect.fn("Projects.updateCurrent")(function* (update: AdminProjectUpdate) {
  return yield* Endpoint.call(updateCurrentEndpoint, { payload: update }).pipe(QueryCache.invalidating(["project"]))
})

/**
 * Deletes the current project, irreversibly: afterwards every request to it fails with
 * `CurrentProjectNotFound`. `DELETE /internal/projects/current`; needs `AdminAccess`.
 */
export const deleteCurrent = Effect.fn("Projects.deleteCurrent")(function* () {
  yield* Endpoint.call(deleteCurrentEndpoint, {}).pipe(QueryCache.invalidating(["project"]))
})

const requireInternalProject = Effect.flatMap(StackClient, (client) =>
  client.config.projectId === "internal" ? Effect.void : Effect.fail(ConfigurationError.make(ExpectedInternalProject.make({})))
)

/**
 * The projects the signed-in user owns (admin view). `GET /internal/projects`; only on the
 * `internal` project: with any other project id fails with `ConfigurationError` (reason
 * `ExpectedInternalProject`) before sending. Fails with `UserNotSignedIn` when nobody is signed in.
 */
export const listOwned = Effect.fn("Projects.listOwned")(function* () {
  yield* requireInternalProject
  const list = yield* Endpoint.call(listOwnedEndpoint, {})
  return list.items
})

/**
 * Creates a project owned by `ownerTeamId` (a team the signed-in user belongs to, else
 * `TeamMembershipNotFound`) and returns it (admin view). `POST /internal/projects`; only on the
 * `internal` project (`ConfigurationError` with reason `ExpectedInternalProject` before sending otherwise).
 */
export const createOwned = Effect.fn("Projects.createOwned")(function* (create: OwnedProjectCreate) {
  yield* requireInternalProject
  return yield* Endpoint.call(createOwnedEndpoint, { payload: create })
})
