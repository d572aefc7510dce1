/**
 * Projects (PROTOCOL.md §3.0 "Project", §3.7): the current project's client view, and the projects
 * owned by a user of the `internal` project. The admin view, config updates and deletion are in
 * `AdminProjects`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import { ConfigurationError } from "../core/Errors.js"
import { ExpectedInternalProject } from "../core/KnownErrors.js"
import { StackClient } from "../core/StackClient.js"
import { transferEndpoint } from "./internal/config.js"
import { createOwnedEndpoint, getCurrentEndpoint, listOwnedEndpoint, OwnedProjectCreate } from "./internal/projects.js"

/** The domain's schemas, defined with its wire definitions (`internal/projects.ts`). */
export {
  AdminProject,
  AdminProjectConfig,
  AdminProjectConfigUpdate,
  AdminProjectUpdate,
  ClientProject,
  ClientProjectConfig,
  EmailConfig,
  IdRef,
  OAuthAccountMergeStrategy,
  OAuthProviderConfig,
  OAuthProviderId,
  OAuthProviderUpdate,
  OnboardingStatus,
  OwnedProjectCreate,
  SharedEmailConfig,
  SharedOAuthProviderUpdate,
  StandardEmailConfig,
  StandardOAuthProviderUpdate,
  TrustedDomain
} from "./internal/projects.js"

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

const requireInternalProject = StackClient.use((client) =>
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

/**
 * Moves a project the signed-in user's team owns to another team of theirs. `POST
 * /internal/projects/transfer`; only on the `internal` project (`ConfigurationError` with reason
 * `ExpectedInternalProject` before sending otherwise). The user must hold `team_admin` in the
 * owner team (`TeamPermissionRequired`; `TeamMembershipNotFound` when not a member) and belong to
 * `newTeamId` (`TeamMembershipNotFound`); an unknown project is `ProjectNotFound`, a project
 * without owner team the service's 400 text (`HttpError`). Official: `user.transferProject(projectId, newTeamId)`.
 */
export const transfer = Effect.fn("Projects.transfer")(function* (projectId: string, newTeamId: string) {
  yield* requireInternalProject
  yield* Endpoint.call(transferEndpoint, { payload: { projectId, newTeamId } }).pipe(QueryCache.invalidating(["project"]))
})
