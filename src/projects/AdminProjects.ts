/**
 * The current project with admin access (PROTOCOL.md §3.6; super secret admin key or an owner's
 * admin access token): its admin view (full config), config updates and deletion. The client
 * view is `Projects.getCurrent`.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as QueryCache from "../cache/QueryCache.js"
import * as Endpoint from "../core/Endpoint.js"
import type { AdminProjectUpdate } from "./internal/projects.js"
import * as ProductionMode from "./ProductionMode.js"
import { deleteCurrentEndpoint, getCurrentAdminEndpoint, updateCurrentEndpoint } from "./internal/projects.js"

/** The cache key of the current project's admin view (under `["project"]`: every project or config write refreshes it). */
export const cacheKey: QueryCache.Key = ["project", "admin"]

/**
 * The current project, admin view (full config). `GET /internal/projects/current`, through the
 * query cache (key {@link cacheKey}); needs `AdminAccess` (admin key, or the admin access token of
 * an owner).
 */
export const getCurrent = Effect.fn("AdminProjects.getCurrent")(function* () {
  return yield* QueryCache.cached(cacheKey, Endpoint.call(getCurrentAdminEndpoint, {}))
})

/**
 * What keeps the current project from being safe in production (`ProductionMode.check` of its
 * admin view), read through the same cache as {@link getCurrent}. Official:
 * `project.getProductionModeErrors()`.
 */
export const getProductionModeErrors = Effect.fn("AdminProjects.getProductionModeErrors")(function* () {
  return ProductionMode.check(yield* getCurrent())
})

/**
 * Changes the current project (name, description, production mode, config switches, trusted
 * domains, OAuth providers, e-mail server, merge strategy, default permissions) and returns it.
 * Arrays replace the whole list. `PATCH /internal/projects/current`; needs `AdminAccess`.
 */
export const updateCurrent = Effect.fn("AdminProjects.updateCurrent")(function* (update: AdminProjectUpdate) {
  return yield* Endpoint.call(updateCurrentEndpoint, { payload: update }).pipe(QueryCache.invalidating(["project"]))
})

/**
 * Deletes the current project, irreversibly: afterwards every request to it fails with
 * `CurrentProjectNotFound`. `DELETE /internal/projects/current`; needs `AdminAccess`.
 */
export const deleteCurrent = Effect.fn("AdminProjects.deleteCurrent")(function* () {
  yield* Endpoint.call(deleteCurrentEndpoint, {}).pipe(QueryCache.invalidating(["project"]))
})
