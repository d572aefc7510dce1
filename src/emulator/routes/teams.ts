/**
 * Teams (PROTOCOL.md §3.4, wire samples teams/01–07, 25–28): list (client: own teams only;
 * server: all or a user's), read (client: members only), create (client: only where the project
 * allows client team creation, the signed-in user as creator; server: any creator or none),
 * update (client: `$update_team`) and delete (client: `$delete_team`; memberships, grants,
 * invitations and team API keys go with the team).
 *
 * @module
 */
import { Effect } from "effect"
import { CannotGetOwnUserWithoutUser, UserAuthenticationRequired } from "../../core/KnownErrors.js"
import * as ServerTeams from "../../teams/internal/serverTeams.js"
import * as Teams from "../../teams/internal/teams.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf, resolveUserId } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import { deleteTeam } from "../Store.js"
import * as Endpoints from "../Endpoints.js"
import { applyTeamUpdate, clientTeamView, createTeam, ensureMember, ensurePermission, findTeam, findUser, serverTeamView, teamsInOrder } from "../Teams.js"
import { isBase64Image } from "../Validation.js"

/** The 403 text when a client lists another user's teams. */
export const foreignTeamsListText = "Client can only list teams for their own user. user_id must be either \"me\" or the ID of the current user"

/** The 403 text when a client creates a team for another creator. */
export const foreignCreatorText = "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'."

/** The signed-in user of a client request, or USER_AUTHENTICATION_REQUIRED. */
export const signedInUser = (context: RequestContext) =>
  context.auth?.user !== undefined ? Effect.succeed(context.auth.user) : Effect.fail(UserAuthenticationRequired.make({}))

/** A client-set profile image must be a base64 image (400 text otherwise). */
export const checkClientImage = (image: string | null | undefined) =>
  image != null && !isBase64Image(image) ? Effect.fail(new TextFailure({ status: 400, text: Teams.invalidProfileImageText })) : Effect.void

/** The team routes. */
export const routes = [
  route(Endpoints.listTeamsAsClient, ({ query }, context) =>
    Effect.gen(function* () {
      const me = context.auth?.user
      if (me === undefined) return yield* Effect.fail(CannotGetOwnUserWithoutUser.make({}))
      // without user_id (all the project's teams) or with another user's: the service's 403 text
      const userId = query.userId === undefined ? undefined : yield* resolveUserId(context, query.userId)
      if (userId !== me.id) return yield* Effect.fail(new TextFailure({ status: 403, text: foreignTeamsListText }))
      const items = teamsInOrder(projectOf(context))
        .filter((team) => team.memberUserIds.has(me.id))
        .map(clientTeamView)
      return { items, isPaginated: false }
    })),
  route(ServerTeams.listEndpoint, ({ query }, context) =>
    Effect.gen(function* () {
      const userId = query.userId === undefined ? undefined : yield* resolveUserId(context, query.userId)
      return {
        items: teamsInOrder(projectOf(context))
          .filter((team) => userId === undefined || team.memberUserIds.has(userId))
          .map(serverTeamView),
        isPaginated: false
      }
    })),
  route(Teams.getEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = yield* signedInUser(context)
      yield* ensureMember(project, params.teamId, me.id)
      return clientTeamView(yield* findTeam(project, params.teamId))
    })),
  route(ServerTeams.getEndpoint, ({ params }, context) => Effect.map(findTeam(projectOf(context), params.teamId), serverTeamView)),
  route(Teams.createEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = yield* signedInUser(context)
      if (!project.config.clientTeamCreationEnabled) {
        return yield* Effect.fail(new TextFailure({ status: 403, text: Teams.clientTeamCreationDisabledText }))
      }
      yield* checkClientImage(payload.profileImageUrl)
      if (payload.creatorUserId !== "me" && payload.creatorUserId !== me.id) {
        return yield* Effect.fail(new TextFailure({ status: 403, text: foreignCreatorText }))
      }
      const team = createTeam(
        project,
        { displayName: payload.displayName, profileImageUrl: payload.profileImageUrl, clientMetadata: payload.clientMetadata },
        context.nowMillis,
        me.id
      )
      return clientTeamView(team)
    })),
  route(ServerTeams.createEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const { creatorUserId, ...fields } = payload
      const creator = creatorUserId === undefined ? undefined : yield* resolveUserId(context, creatorUserId)
      if (creator !== undefined) yield* findUser(project, creator)
      return serverTeamView(createTeam(project, fields, context.nowMillis, creator))
    })),
  route(Teams.updateEndpoint, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* checkClientImage(payload.profileImageUrl)
      const me = yield* signedInUser(context)
      yield* ensurePermission(project, params.teamId, me.id, "$update_team")
      const team = yield* findTeam(project, params.teamId)
      applyTeamUpdate(team, payload)
      return clientTeamView(team)
    })),
  route(ServerTeams.updateEndpoint, ({ params, payload }, context) =>
    Effect.gen(function* () {
      const team = yield* findTeam(projectOf(context), params.teamId)
      applyTeamUpdate(team, payload)
      return serverTeamView(team)
    })),
  route(Teams.deleteEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const me = yield* signedInUser(context)
      yield* ensurePermission(project, params.teamId, me.id, "$delete_team")
      yield* findTeam(project, params.teamId)
      deleteTeam(project, params.teamId)
      return { success: true as const }
    })),
  route(ServerTeams.deleteEndpoint, ({ params }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      yield* findTeam(project, params.teamId)
      deleteTeam(project, params.teamId)
      return { success: true as const }
    }))
]
