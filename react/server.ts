"use client"
/**
 * Hooks over server access (the official `StackServerApp`'s `useUser(id)`, `useUsers`, `useTeam`,
 * `useTeams`, `listTeamMemberPermissions`' hook, and a server user's or team's API keys,
 * invitations and connected accounts), for apps whose runtime holds the secret server
 * key: a server component tree, an internal admin tool. `makeStackHooks(runtime)` returns them only
 * when the runtime provides `ServerAccess` (a runtime of `Stack.layerServer`, or `Stack.layerAdmin`
 * with a `secretServerKey`); a client app does not compile them.
 *
 * Their names carry `Server` (`useServerUser(id)`), as the server modules do (`ServerUsers`),
 * so they never shadow the signed-in user's hooks (`useUser()`, `useTeams()`).
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { ServerAccess } from "../src/core/Access.js"
import type { ClientServices } from "../src/cache/ClientServices.js"
import * as Permissions from "../src/permissions/Permissions.js"
import * as ServerPermissions from "../src/permissions/ServerPermissions.js"
import * as ServerUserApiKeys from "../src/api-keys/ServerUserApiKeys.js"
import type { ConnectionAccessTokenOptions } from "../src/connected-accounts/ConnectedAccounts.js"
import * as ServerConnectedAccounts from "../src/connected-accounts/ServerConnectedAccounts.js"
import * as ServerTeamInvitations from "../src/teams/ServerTeamInvitations.js"
import * as ServerTeams from "../src/teams/ServerTeams.js"
import type { ServerTeam, ServerUser } from "../src/users/User.js"
import * as ServerUsers from "../src/users/ServerUsers.js"
import type { QueryHooks } from "./domain.js"

/** The services the server hooks need: a Stack layer's, plus `ServerAccess`. */
export type ServerServices = ClientServices | ServerAccess

const userOrNull = (userId: string) => ServerUsers.getById(userId).pipe(Effect.catchTag("UserNotFound", () => Effect.succeed<ServerUser | null>(null)))

const serverOAuthProvider = (userId: string, id: string) => Effect.map(ServerConnectedAccounts.getOAuthProvider(userId, id), Option.getOrNull)

const teamOrNull = (teamId: string) => ServerTeams.get(teamId).pipe(Effect.catchTag("TeamNotFound", () => Effect.succeed<ServerTeam | null>(null)))

/** A stable dependency for an options object (its JSON text). */
const key = (options: object): string => JSON.stringify(options)

/** The server hooks, made of `hooks` typed by a runtime with server access. */
export const makeServerHooks = (hooks: QueryHooks<ServerServices>) => {
  const { useStackQuery: query, useStackSuspenseQuery: suspenseQuery } = hooks
  return {
    /** Any user of the project by id, server view; `null` when there is none (`GET /users/{id}`). */
    useServerUser: (userId: string) => query(userOrNull(userId), [userId]),
    /** {@link useServerUser} for Suspense. */
    useSuspenseServerUser: (userId: string) => suspenseQuery(userOrNull(userId), [userId]),
    /** One page of the project's users (`ServerUsers.list(options)`: `GET /users`). */
    useServerUsers: (options: ServerUsers.ListOptions = {}) => query(ServerUsers.list(options), [key(options)]),
    /** {@link useServerUsers} for Suspense. */
    useSuspenseServerUsers: (options: ServerUsers.ListOptions = {}) => suspenseQuery(ServerUsers.list(options), [key(options)]),
    /** Any team of the project by id, server view; `null` when there is none (`GET /teams/{id}`). */
    useServerTeam: (teamId: string) => query(teamOrNull(teamId), [teamId]),
    /** {@link useServerTeam} for Suspense. */
    useSuspenseServerTeam: (teamId: string) => suspenseQuery(teamOrNull(teamId), [teamId]),
    /** Every team of the project, or one user's (`ServerTeams.list({ userId })`: `GET /teams`). */
    useServerTeams: (options: ServerTeams.ListOptions = {}) => query(ServerTeams.list(options), [options.userId ?? null]),
    /** {@link useServerTeams} for Suspense. */
    useSuspenseServerTeams: (options: ServerTeams.ListOptions = {}) => suspenseQuery(ServerTeams.list(options), [options.userId ?? null]),
    /**
     * A member's permissions in a team, contained ones included unless `recursive: false` (the
     * official `listTeamMemberPermissions`; `GET /team-permissions?team_id=&user_id=`, cached).
     */
    useTeamMemberPermissions: (teamId: string, userId: string, options: Permissions.ListOptions = {}) =>
      query(ServerPermissions.listTeamPermissions(teamId, userId, options), [teamId, userId, options.recursive ?? true]),
    /** A user's API keys (`ServerUserApiKeys.list`: `GET /user-api-keys?user_id=`). */
    useServerUserApiKeys: (userId: string) => query(ServerUserApiKeys.list(userId), [userId]),
    /** A team's pending invitations (`ServerTeamInvitations.list`: `GET /team-invitations?team_id=`). */
    useServerTeamInvitations: (teamId: string) => query(ServerTeamInvitations.list(teamId), [teamId]),
    /** The pending invitations addressed to a user (`ServerTeamInvitations.listMine(userId)`). */
    useServerReceivedInvitations: (userId: string) => query(ServerTeamInvitations.listMine(userId), [userId]),
    /** A user's connected provider accounts (`ServerConnectedAccounts.list`: `GET /connected-accounts/{id}`). */
    useServerConnectedAccounts: (userId: string) => query(ServerConnectedAccounts.list(userId), [userId]),
    /** A user's OAuth provider connections (the official server `user.useOAuthProviders()`; `GET /oauth-providers?user_id=`). */
    useServerOAuthProviders: (userId: string) => query(ServerConnectedAccounts.listOAuthProviders(userId), [userId]),
    /** {@link useServerOAuthProviders} for Suspense. */
    useSuspenseServerOAuthProviders: (userId: string) => suspenseQuery(ServerConnectedAccounts.listOAuthProviders(userId), [userId]),
    /** One of a user's OAuth provider connections by id, or `null` (the official server `user.useOAuthProvider(id)`). */
    useServerOAuthProvider: (userId: string, id: string) => query(serverOAuthProvider(userId, id), [userId, id]),
    /** {@link useServerOAuthProvider} for Suspense. */
    useSuspenseServerOAuthProvider: (userId: string, id: string) => suspenseQuery(serverOAuthProvider(userId, id), [userId, id]),
    /**
     * A provider access token of one of a user's connected accounts (the official server
     * `connection.useAccessToken({ scopes })`): `{ accessToken }`, or `OauthAccessTokenNotAvailable`.
     */
    useServerConnectionAccessToken: (
      connection: Parameters<typeof ServerConnectedAccounts.getConnectionAccessToken>[0],
      options: ConnectionAccessTokenOptions = {}
    ) =>
      query(ServerConnectedAccounts.getConnectionAccessToken(connection, options), [
        connection.userId,
        connection.provider,
        connection.providerAccountId,
        (options.scopes ?? []).join(" ")
      ]),
    /** {@link useServerConnectionAccessToken} for Suspense. */
    useSuspenseServerConnectionAccessToken: (
      connection: Parameters<typeof ServerConnectedAccounts.getConnectionAccessToken>[0],
      options: ConnectionAccessTokenOptions = {}
    ) =>
      suspenseQuery(ServerConnectedAccounts.getConnectionAccessToken(connection, options), [
        connection.userId,
        connection.provider,
        connection.providerAccountId,
        (options.scopes ?? []).join(" ")
      ]),
    /** {@link useTeamMemberPermissions} for Suspense. */
    useSuspenseTeamMemberPermissions: (teamId: string, userId: string, options: Permissions.ListOptions = {}) =>
      suspenseQuery(ServerPermissions.listTeamPermissions(teamId, userId, options), [teamId, userId, options.recursive ?? true])
  }
}

/** The hooks {@link makeServerHooks} makes (from `makeStackHooks(runtime)` with server access). */
export type ServerHooks = ReturnType<typeof makeServerHooks>
