/**
 * Team memberships (PROTOCOL.md §3.4, wire samples teams/08, 09, 14, 15): a server adds a user to
 * a team (member default permissions; `USER_NOT_FOUND`, `TEAM_NOT_FOUND`,
 * `TEAM_MEMBERSHIP_ALREADY_EXISTS` checked in that order) and removes members; a client removes
 * itself (`me`) always and others with `$remove_members`. Removing a member drops their grants,
 * their team profile and, if it was this team, their selection.
 *
 * @module
 */
import { Effect } from "effect"
import { CannotGetOwnUserWithoutUser, TeamMembershipAlreadyExists } from "../../core/KnownErrors.js"
import * as ServerTeams from "../../teams/internal/serverTeams.js"
import * as Teams from "../../teams/internal/teams.js"
import { projectOf, resolveUserId } from "../RequestContext.js"
import { route } from "../Router.js"
import { removeMember } from "../Store.js"
import { addMember, ensureMember, ensurePermission, findTeam, findUser, isMember } from "../Teams.js"

/** The team membership routes. */
export const routes = [
  route(
    ServerTeams.addMemberEndpoint,
    ({ params }, context) =>
      Effect.gen(function* () {
        const project = projectOf(context)
        const userId = yield* resolveUserId(context, params.userId)
        yield* findUser(project, userId)
        const team = yield* findTeam(project, params.teamId)
        if (isMember(project, team.id, userId)) return yield* Effect.fail(TeamMembershipAlreadyExists.make({}))
        addMember(project, team, userId, "member")
        return { teamId: team.id, userId }
      }),
    { emptyBody: {} }
  ),
  route(Teams.removeMembershipEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = context.auth?.user
      if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      const userId = yield* resolveUserId(context, params.userId)
      if (userId !== me.id) yield* ensurePermission(project, params.teamId, me.id, "$remove_members")
      yield* ensureMember(project, params.teamId, userId)
      removeMember(project, yield* findTeam(project, params.teamId), userId)
      return { success: true as const }
    })),
  route(ServerTeams.removeMemberEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const userId = yield* resolveUserId(context, params.userId)
      yield* ensureMember(project, params.teamId, userId)
      removeMember(project, yield* findTeam(project, params.teamId), userId)
      return { success: true as const }
    }))
]
