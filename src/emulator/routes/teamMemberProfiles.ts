/**
 * Team member profiles (PROTOCOL.md §3.4, wire samples teams/10–13): the name and image a member
 * shows in one team, falling back to the user's own. Client access: `team_id` required, the
 * caller must be a member, and seeing others needs `$read_members`; only the own profile can be
 * changed. Server access: any team, any user, the server view with the full user.
 *
 * @module
 */
import { Effect } from "effect"
import { CannotGetOwnUserWithoutUser } from "../../core/KnownErrors.js"
import * as ServerTeams from "../../teams/internal/serverTeams.js"
import * as TeamMemberProfiles from "../../teams/internal/teamMemberProfiles.js"
import * as Endpoints from "../Endpoints.js"
import { projectOf, resolveUserId } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { ProjectRecord, TeamRecord, UserRecord } from "../State.js"
import { ensureMember, ensurePermission, findTeam, findUser, membersOf, profileRecordOf, profileView, serverProfileView, teamsInOrder } from "../Teams.js"

/** The 403 text when a client changes another member's profile. */
export const foreignProfileText = "Cannot update another user's profile"

const applyProfileUpdate = (project: ProjectRecord, team: TeamRecord, user: UserRecord, update: TeamMemberProfiles.TeamMemberProfileUpdate): void => {
  const record = profileRecordOf(project, team, user.id)
  if (update.displayName !== undefined) record.displayName = update.displayName
  if (update.profileImageUrl !== undefined) record.profileImageUrl = update.profileImageUrl
}

/** The member profile routes. */
export const routes = [
  route(TeamMemberProfiles.listEndpoint, ({ query }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = context.auth?.user
      if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      const userId = query.userId === undefined ? undefined : yield* resolveUserId(context, query.userId)
      yield* ensureMember(project, query.teamId, me.id)
      if (userId !== me.id) yield* ensurePermission(project, query.teamId, me.id, "$read_members")
      const team = yield* findTeam(project, query.teamId)
      const items = membersOf(project, team)
        .filter((user) => userId === undefined || user.id === userId)
        .map((user) => profileView(project, team, user))
      return { items, isPaginated: false }
    })),
  route(Endpoints.teamMemberProfilesWithoutTeam, () => Effect.fail(new TextFailure({ status: 400, text: "team_id is required for access type client" }))),
  route(ServerTeams.listMemberProfilesEndpoint, ({ query }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const userId = query.userId === undefined ? undefined : yield* resolveUserId(context, query.userId)
      if (query.teamId !== undefined) yield* findTeam(project, query.teamId)
      if (userId !== undefined) yield* findUser(project, userId)
      const items = teamsInOrder(project)
        .filter((team) => query.teamId === undefined || team.id === query.teamId)
        .flatMap((team) =>
          membersOf(project, team)
            .filter((user) => userId === undefined || user.id === userId)
            .map((user) => serverProfileView(project, team, user))
        )
      return { items, isPaginated: false }
    })),
  route(TeamMemberProfiles.getEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = context.auth?.user
      if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      const userId = yield* resolveUserId(context, params.userId)
      if (userId !== me.id) yield* ensurePermission(project, params.teamId, me.id, "$read_members")
      yield* ensureMember(project, params.teamId, userId)
      return profileView(project, yield* findTeam(project, params.teamId), yield* findUser(project, userId))
    })),
  route(ServerTeams.getMemberProfileEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const userId = yield* resolveUserId(context, params.userId)
      yield* ensureMember(project, params.teamId, userId)
      return serverProfileView(project, yield* findTeam(project, params.teamId), yield* findUser(project, userId))
    })),
  route(TeamMemberProfiles.updateEndpoint, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = context.auth?.user
      if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      const userId = yield* resolveUserId(context, params.userId)
      if (userId !== me.id) return yield* Effect.fail(new TextFailure({ status: 403, text: foreignProfileText }))
      yield* ensureMember(project, params.teamId, userId)
      const team = yield* findTeam(project, params.teamId)
      applyProfileUpdate(project, team, me, payload)
      return profileView(project, team, me)
    })),
  route(ServerTeams.updateMemberProfileEndpoint, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const userId = yield* resolveUserId(context, params.userId)
      yield* ensureMember(project, params.teamId, userId)
      const team = yield* findTeam(project, params.teamId)
      const user = yield* findUser(project, userId)
      applyProfileUpdate(project, team, user, payload)
      return serverProfileView(project, team, user)
    }))
]
