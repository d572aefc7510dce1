"use client"
/**
 * Hooks over the signed-in user's reads that need client access only and are not in
 * `domain.ts`: a team member's profile (the official `user.useTeamProfile(team)`) and the
 * projects the user owns (the official `user.useOwnedProjects()`, on the `internal` project).
 * Each has a Suspense twin; `makeStackHooks(runtime)` returns them too.
 *
 * @module
 */
import * as QueryCache from "../src/cache/QueryCache.js"
import * as Projects from "../src/projects/Projects.js"
import * as TeamMemberProfiles from "../src/teams/TeamMemberProfiles.js"
import type { ClientServices } from "../src/cache/ClientServices.js"
import type { QueryHooks } from "./domain.js"
import { useQueryWith, useSuspenseQueryWith } from "./internal/hooks.js"

/** The cache key of the signed-in user's owned projects (no SDK call invalidates it: `refetch()` reads again). */
export const ownedProjectsKey: QueryCache.Key = ["owned-projects"]

const ownedProjects = () => QueryCache.cached(ownedProjectsKey, Projects.listOwned())

/** The profile hooks, made of `hooks` (each needs only the services of a Stack layer). */
export const makeProfileHooks = (hooks: QueryHooks<ClientServices>) => {
  const { useStackQuery: query, useStackSuspenseQuery: suspenseQuery } = hooks
  return {
    /**
     * A member's profile in a team (default: the signed-in user's), `TeamMemberProfiles.get`
     * (`GET /team-member-profiles/{team_id}/{user_id}`, cached; refreshed by `updateMine`).
     */
    useTeamProfile: (teamId: string, userId: string = "me") => query(TeamMemberProfiles.get(teamId, userId), [teamId, userId]),
    /** {@link useTeamProfile} for Suspense. */
    useSuspenseTeamProfile: (teamId: string, userId: string = "me") => suspenseQuery(TeamMemberProfiles.get(teamId, userId), [teamId, userId]),
    /**
     * The projects the signed-in user owns, admin view (`Projects.listOwned`: `GET /internal/projects`;
     * only on the `internal` project, else `ConfigurationError` before sending). Cached under
     * {@link ownedProjectsKey}, which `Projects.createOwned` does not invalidate: `refetch()` reads again.
     */
    useOwnedProjects: () => query(ownedProjects(), []),
    /** {@link useOwnedProjects} for Suspense. */
    useSuspenseOwnedProjects: () => suspenseQuery(ownedProjects(), [])
  }
}

/** The hooks {@link makeProfileHooks} makes. */
export type ProfileHooks = ReturnType<typeof makeProfileHooks>

const generic: ProfileHooks = makeProfileHooks({
  useStackQuery: (effect, deps, options = {}) => useQueryWith("useStackQuery", undefined, effect, deps, options),
  useStackSuspenseQuery: (effect, deps) => useSuspenseQueryWith("useStackSuspenseQuery", undefined, effect, deps)
})

/**
 * A member's profile in a team (default: the signed-in user's): display name and image in that
 * team (`TeamMemberProfiles.get`, cached). Reading another member needs `$read_members`.
 *
 * @example
 * ```tsx
 * import { useTeamProfile } from "stack-auth-effect/react"
 *
 * const MyNameInTeam = (props: { readonly teamId: string }) => {
 *   const profile = useTeamProfile(props.teamId)
 *   return <span>{profile.status === "success" ? profile.data.displayName : "…"}</span>
 * }
 * ```
 */
export const useTeamProfile = generic.useTeamProfile

/** {@link useTeamProfile} for Suspense. */
export const useSuspenseTeamProfile = generic.useSuspenseTeamProfile

/** The projects the signed-in user owns (`Projects.listOwned`, on the `internal` project). */
export const useOwnedProjects = generic.useOwnedProjects

/** {@link useOwnedProjects} for Suspense. */
export const useSuspenseOwnedProjects = generic.useSuspenseOwnedProjects
