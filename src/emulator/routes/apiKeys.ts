/**
 * User and team API keys (PROTOCOL.md §3.6, wire samples api-keys/01–15): create (200, full value
 * once), list (newest first), get, update/revoke (revoking twice keeps the first time) and the
 * server-side check. Every route answers 400 text "User API keys are not enabled for this
 * project." unless the project's `allow_user_api_keys` is on. Client access may only address
 * the signed-in user's keys. A read or update of one key may leave `user_id` out, as on the
 * service: the key is found by id and client access must own it (403 text otherwise).
 *
 * Team keys follow the same rules under `/team-api-keys` with `team_id`, gated by
 * `allow_team_api_keys`; client access needs `$manage_api_keys` in the key's team, and without
 * it (not a member included) the answer is `API_KEY_NOT_FOUND`, so as not to reveal the team.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import type { UserApiKey } from "../../api-keys/UserApiKeys.js"
import { checkEndpoint, createEndpoint, listEndpoint, userApiKeysNotEnabledText } from "../../api-keys/internal/userApiKeys.js"
import type { TeamApiKey } from "../../api-keys/TeamApiKeys.js"
import * as TeamApiKeys from "../../api-keys/internal/teamApiKeys.js"
import { ApiKeyNotFound, UserAuthenticationRequired, UserNotFound } from "../../core/KnownErrors.js"
import { hasTeamPermission } from "../Permissions.js"
import { findTeam } from "../Teams.js"
import { apiKeysOf, checkKey, issueKey } from "../ApiKeys.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import type { Handler } from "../Router.js"
import { route } from "../Router.js"
import * as Endpoints from "../Endpoints.js"
import type { ApiKeyRecord } from "../State.js"

/** The 403 text when client access names another user's keys. */
export const foreignUserKeysText = "Client can only manage their own api keys"

const enabled = (context: RequestContext): Effect.Effect<void, TextFailure> =>
  projectOf(context).config.allowUserApiKeys ? Effect.void : Effect.fail(new TextFailure({ status: 400, text: userApiKeysNotEnabledText }))

/** `me`: the signed-in user's id (USER_AUTHENTICATION_REQUIRED without one). */
const meId = (context: RequestContext): Effect.Effect<string, UserAuthenticationRequired> =>
  context.auth?.user === undefined ? Effect.fail(UserAuthenticationRequired.make({})) : Effect.succeed(context.auth.user.id)

/** The id of the user a client request addresses: `me` or its own id (403 text for another). */
const clientOwnerId = (context: RequestContext, userId: string): Effect.Effect<string, TextFailure | UserAuthenticationRequired> =>
  Effect.gen(function* () {
    yield* enabled(context)
    if (userId === "me") return yield* meId(context)
    if (context.auth?.user?.id !== userId) return yield* Effect.fail(new TextFailure({ status: 403, text: foreignUserKeysText }))
    return userId
  })

/** The id of the user a server request addresses: `me` or any existing user (USER_NOT_FOUND). */
const serverOwnerId = (
  context: RequestContext,
  userId: string
): Effect.Effect<string, TextFailure | UserAuthenticationRequired | UserNotFound> =>
  Effect.gen(function* () {
    yield* enabled(context)
    if (userId === "me") return yield* meId(context)
    if (!projectOf(context).users.has(userId)) return yield* Effect.fail(UserNotFound.make({}))
    return userId
  })

/** The fields user and team keys share. */
const shared = (key: ApiKeyRecord) => ({
  id: key.id,
  description: key.description,
  createdAt: new Date(key.createdAtMillis),
  ...(key.expiresAtMillis !== undefined ? { expiresAt: new Date(key.expiresAtMillis) } : {}),
  ...(key.revokedAtMillis !== undefined ? { manuallyRevokedAt: new Date(key.revokedAtMillis) } : {}),
  isPublic: key.isPublic
})

const common = (key: ApiKeyRecord) => ({ ...shared(key), type: "user" as const, userId: key.ownerId })

/** The read view of a user key (value obfuscated). */
export const userKeyView = (key: ApiKeyRecord): UserApiKey => ({ ...common(key), value: { lastFour: key.lastFour } })

/**
 * One user key for a read or an update without `user_id`, as the service's `onRead` / `onUpdate`
 * (`apps/backend/src/app/api/latest/(api-keys)/handlers.tsx` at
 * 2f719903b181c20940159e9f3aaaa99bc3ec3b0f): the key by its id (`API_KEY_NOT_FOUND`), then, for
 * client access, `ensureUserCanManageApiKeys` with the key's owner (USER_AUTHENTICATION_REQUIRED
 * without a user, 403 text for another user's key); server access has no owner check. The
 * service does not say what a team key's id answers here: the emulator keeps `API_KEY_NOT_FOUND`.
 */
const findKeyById = (context: RequestContext, apiKeyId: string, access: "client" | "server") =>
  Effect.gen(function* () {
    yield* enabled(context)
    const key = apiKeysOf(projectOf(context)).get(apiKeyId)
    if (key === undefined || key.type !== "user") return yield* Effect.fail(ApiKeyNotFound.make({}))
    if (access === "client") {
      const userId = yield* meId(context)
      if (key.ownerId !== userId) return yield* Effect.fail(new TextFailure({ status: 403, text: foreignUserKeysText }))
    }
    return key
  })

/** The handlers of user keys at one access level, `ownerId` resolving the addressed user. */
const userKeyHandlers = <E>(access: "client" | "server", ownerId: (context: RequestContext, userId: string) => Effect.Effect<string, E>) => {
  // with `user_id`: the emulator's rule, the key of that user (API_KEY_NOT_FOUND for another's)
  const findOwn = (
    context: RequestContext,
    userId: string | undefined,
    apiKeyId: string
  ): Effect.Effect<ApiKeyRecord, E | ApiKeyNotFound | TextFailure | UserAuthenticationRequired> =>
    userId === undefined
      ? findKeyById(context, apiKeyId, access)
      : Effect.gen(function* () {
        const owner = yield* ownerId(context, userId)
        const key = apiKeysOf(projectOf(context)).get(apiKeyId)
        if (key === undefined || key.type !== "user" || key.ownerId !== owner) return yield* Effect.fail(ApiKeyNotFound.make({}))
        return key
      })
  const list = (input: Parameters<Handler<typeof listEndpoint>>[0], context: RequestContext) =>
    Effect.gen(function* () {
      const owner = yield* ownerId(context, input.query.userId)
      // newest first; keys created at the same millisecond: the later one first
      const items = [...apiKeysOf(projectOf(context)).values()]
        .reverse()
        .filter((key) => key.type === "user" && key.ownerId === owner)
        .sort((a, b) => b.createdAtMillis - a.createdAtMillis)
        .map(userKeyView)
      return { items, isPaginated: false }
    })
  const create = (input: Parameters<Handler<typeof createEndpoint>>[0], context: RequestContext) =>
    Effect.gen(function* () {
      const { payload } = input
      const owner = yield* ownerId(context, payload.userId)
      const { record, value } = yield* issueKey(projectOf(context), {
        type: "user",
        ownerId: owner,
        description: payload.description,
        isPublic: payload.isPublic ?? false,
        expiresAtMillis: payload.expiresAt === null ? undefined : payload.expiresAt.getTime(),
        nowMillis: context.nowMillis
      })
      return { ...common(record), value: Redacted.make(value) }
    })
  const get = (input: Parameters<Handler<typeof Endpoints.userApiKeyOfService.get>>[0], context: RequestContext) =>
    Effect.map(findOwn(context, input.query.userId, input.params.apiKeyId), userKeyView)
  const update = (input: Parameters<Handler<typeof Endpoints.userApiKeyOfService.update>>[0], context: RequestContext) =>
    Effect.map(findOwn(context, input.query.userId, input.params.apiKeyId), (key) => {
      if (input.payload.description !== undefined) key.description = input.payload.description
      if (input.payload.revoked === true && key.revokedAtMillis === undefined) key.revokedAtMillis = context.nowMillis
      return userKeyView(key)
    })
  return { list, create, get, update }
}

const clientKeys = userKeyHandlers("client", clientOwnerId)
const serverKeys = userKeyHandlers("server", serverOwnerId)

/** The user API key routes (client access: the signed-in user's keys; server access: any user's). */
export const routes = [
  route(checkEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      yield* enabled(context)
      return userKeyView(yield* checkKey(projectOf(context), Redacted.value(payload.apiKey), "user", context.nowMillis))
    })),
  route(listEndpoint, clientKeys.list),
  route(createEndpoint, clientKeys.create),
  route(Endpoints.userApiKeyOfService.get, clientKeys.get),
  route(Endpoints.userApiKeyOfService.update, clientKeys.update),
  route(Endpoints.serverUserApiKeys.list, serverKeys.list),
  route(Endpoints.serverUserApiKeys.create, serverKeys.create),
  route(Endpoints.serverUserApiKeys.get, serverKeys.get),
  route(Endpoints.serverUserApiKeys.update, serverKeys.update)
]

// ---------------------------------------------------------------------------------------------
// Team keys
// ---------------------------------------------------------------------------------------------

const teamKeysEnabled = (context: RequestContext): Effect.Effect<void, TextFailure> =>
  projectOf(context).config.allowTeamApiKeys
    ? Effect.void
    : Effect.fail(new TextFailure({ status: 400, text: TeamApiKeys.teamApiKeysNotEnabledText }))

/**
 * Whether the request may manage a team's keys: client access needs a signed-in user holding
 * `$manage_api_keys` in the team (else API_KEY_NOT_FOUND); server access needs the team to exist.
 */
const canManageTeamKeys = (context: RequestContext, teamId: string) =>
  Effect.gen(function* () {
    if (context.auth?.type === "client") {
      const me = context.auth.user
      if (me === undefined) return yield* Effect.fail(UserAuthenticationRequired.make({}))
      if (!hasTeamPermission(projectOf(context), teamId, me.id, "$manage_api_keys")) return yield* Effect.fail(ApiKeyNotFound.make({}))
      return
    }
    yield* findTeam(projectOf(context), teamId)
  })

const teamCommon = (key: ApiKeyRecord) => ({ ...shared(key), type: "team" as const, teamId: key.ownerId })

/** The read view of a team key (value obfuscated). */
export const teamKeyView = (key: ApiKeyRecord): TeamApiKey => ({ ...teamCommon(key), value: { lastFour: key.lastFour } })

/** A team key by id, once the request may manage the key's team. */
const findTeamKey = (context: RequestContext, apiKeyId: string) =>
  Effect.gen(function* () {
    yield* teamKeysEnabled(context)
    const key = apiKeysOf(projectOf(context)).get(apiKeyId)
    if (key === undefined || key.type !== "team") return yield* Effect.fail(ApiKeyNotFound.make({}))
    yield* canManageTeamKeys(context, key.ownerId)
    return key
  })

/** The team API key routes. */
export const teamRoutes = [
  route(TeamApiKeys.checkEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      yield* teamKeysEnabled(context)
      return teamKeyView(yield* checkKey(projectOf(context), Redacted.value(payload.apiKey), "team", context.nowMillis))
    })),
  route(TeamApiKeys.listEndpoint, ({ query }, context) =>
    Effect.gen(function* () {
      yield* teamKeysEnabled(context)
      yield* canManageTeamKeys(context, query.teamId)
      const items = [...apiKeysOf(projectOf(context)).values()]
        .reverse()
        .filter((key) => key.type === "team" && key.ownerId === query.teamId)
        .sort((a, b) => b.createdAtMillis - a.createdAtMillis)
        .map(teamKeyView)
      return { items, isPaginated: false }
    })),
  route(TeamApiKeys.createEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      yield* teamKeysEnabled(context)
      yield* canManageTeamKeys(context, payload.teamId)
      const { record, value } = yield* issueKey(projectOf(context), {
        type: "team",
        ownerId: payload.teamId,
        description: payload.description,
        isPublic: payload.isPublic ?? false,
        expiresAtMillis: payload.expiresAt === null ? undefined : payload.expiresAt.getTime(),
        nowMillis: context.nowMillis
      })
      return { ...teamCommon(record), value: Redacted.make(value) }
    })),
  route(TeamApiKeys.getEndpoint, ({ params }, context) => Effect.map(findTeamKey(context, params.apiKeyId), teamKeyView)),
  route(TeamApiKeys.updateEndpoint, ({ params, payload }, context) =>
    Effect.map(findTeamKey(context, params.apiKeyId), (key) => {
      if (payload.description !== undefined) key.description = payload.description
      if (payload.revoked === true && key.revokedAtMillis === undefined) key.revokedAtMillis = context.nowMillis
      return teamKeyView(key)
    }))
]
