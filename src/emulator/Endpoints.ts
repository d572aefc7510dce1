/**
 * Endpoint definitions the emulator serves that the SDK does not define (yet), or defines only
 * from the client's side. Their schemas are written on the wire's terms (snake_case keys); where
 * an SDK schema fits, it is reused.
 *
 * - `oauthToken`: the token endpoint as the service accepts it (client_secret optional, both
 *   grants, the deprecated duplicate keys of the answer). The SDK's `refreshGrant` is the
 *   client's view of the same route.
 * - anonymous sign-up; `/auth/sessions/current/refresh`; JWKS; the welcome text; the outbox.
 *
 * @module
 */
import { Schema } from "effect"
import * as Endpoint from "../core/Endpoint.js"
import {
  AccessTokenExpired,
  ApiKeyNotFound,
  CannotGetOwnUserWithoutUser,
  ContactChannelAlreadyUsedForAuthBySomeoneElse,
  InvalidAuthorizationCode,
  InvalidOauthClientIdOrSecret,
  InvalidPublishableClientKey,
  InvalidScope,
  MultiFactorAuthenticationRequired,
  OauthConnectionAlreadyConnectedToAnotherUser,
  OauthExtraScopeNotAvailableWithSharedOauthKeys,
  OauthProviderAccessDenied,
  OauthProviderAccountIdAlreadyUsedForSignIn,
  OauthProviderNotFoundOrNotEnabled,
  OauthProviderTemporarilyUnavailable,
  OuterOauthTimeout,
  PublishableClientKeyRequiredForProject,
  RedirectUrlNotWhitelisted,
  RefreshTokenNotFoundOrExpired,
  SignUpNotEnabled,
  UnparsableAccessToken,
  UserAuthenticationRequired,
  UserNotFound
} from "../core/KnownErrors.js"
import type { KnownErrorClass } from "../core/KnownError.js"
import * as ConnectedAccounts from "../connected-accounts/internal/connectedAccounts.js"
import * as UserApiKeys from "../api-keys/internal/userApiKeys.js"
import { AuthorizeQuery } from "../auth/internal/oauth.js"
import { field, optionalField, QueryBoolean as WireQueryBoolean, Uuid as WireUuid, wireStruct } from "../core/Wire.js"
import * as Projects from "../projects/internal/projects.js"
import * as Teams from "../teams/internal/teams.js"
import * as ServerUsers from "../users/internal/serverUsers.js"

/** A uuid path/body value (the SDK's `Wire.Uuid`). */
export const Uuid = WireUuid

/** `"true"` / `"false"` in a query string, a boolean in the domain (the SDK's `Wire.QueryBoolean`). */
export const QueryBoolean = WireQueryBoolean

// ---------------------------------------------------------------------------------------------
// Health, JWKS, outbox
// ---------------------------------------------------------------------------------------------

/** `GET /api/v1`: welcome text echoing the resolved authentication; rejects any query. */
export const welcome = Endpoint.make({
  name: "Emulator.welcome",
  method: "GET",
  path: "/",
  access: "none",
  session: "none",
  success: Schema.String,
  errors: []
})

/** A public key of the JWKS. */
export const Jwk = Schema.Struct({
  kty: Schema.Literal("EC"),
  crv: Schema.Literal("P-256"),
  alg: Schema.Literal("ES256"),
  kid: Schema.String,
  x: Schema.String,
  y: Schema.String
})

/** `GET /projects/{project_id}/.well-known/jwks.json` (no auth). */
export const jwks = Endpoint.make({
  name: "Emulator.jwks",
  method: "GET",
  path: "/projects/:project_id/.well-known/jwks.json",
  access: "none",
  session: "none",
  params: Schema.Struct({ project_id: Schema.String }),
  query: Schema.Struct({
    include_anonymous: Schema.optional(QueryBoolean),
    include_restricted: Schema.optional(QueryBoolean)
  }),
  success: Schema.Struct({ keys: Schema.Array(Jwk) }),
  errors: []
})

/** `GET /projects-anonymous-users/{project_id}/.well-known/jwks.json`: 307 to the JWKS with `include_anonymous=true`. */
export const jwksAnonymousAlias = Endpoint.make({
  name: "Emulator.jwksAnonymousAlias",
  method: "GET",
  path: "/projects-anonymous-users/:project_id/.well-known/jwks.json",
  access: "none",
  session: "none",
  params: Schema.Struct({ project_id: Schema.String }),
  success: Schema.instanceOf(Response),
  errors: []
})

/** One outbox entry on the wire. */
export const OutboxItem = Schema.Struct({
  id: Schema.String,
  to: Schema.String,
  subject: Schema.String,
  code: Schema.NullOr(Schema.String),
  link: Schema.NullOr(Schema.String),
  sent_at_millis: Schema.Number
})

/** `GET /emulator/outbox?email=&project_id=` (emulator only, no auth): e-mails the emulator "sent", oldest first. */
export const outbox = Endpoint.make({
  name: "Emulator.outbox",
  method: "GET",
  path: "/emulator/outbox",
  access: "none",
  session: "none",
  query: Schema.Struct({ email: Schema.optional(Schema.String), project_id: Schema.optional(Schema.String) }),
  success: Schema.Struct({ items: Schema.Array(OutboxItem) }),
  errors: []
})

// ---------------------------------------------------------------------------------------------
// Tokens and sessions
// ---------------------------------------------------------------------------------------------

/** The token endpoint's body as the service accepts it (extra keys tolerated by the route). */
export const OAuthTokenRequest = Schema.Struct({
  grant_type: Schema.Literals(["refresh_token", "authorization_code"]),
  client_id: Schema.optional(Schema.String),
  client_secret: Schema.optional(Schema.String),
  refresh_token: Schema.optional(Schema.String),
  code: Schema.optional(Schema.String),
  redirect_uri: Schema.optional(Schema.String),
  code_verifier: Schema.optional(Schema.String),
  scope: Schema.optional(Schema.String)
})

/** The token endpoint's answer on the wire (with the deprecated duplicates `newUser`, `afterCallbackRedirectUrl`). */
export const OAuthTokenAnswer = Schema.Struct({
  access_token: Schema.String,
  token_type: Schema.Literal("Bearer"),
  expires_in: Schema.Number,
  scope: Schema.String,
  refresh_token: Schema.optional(Schema.String),
  is_new_user: Schema.optional(Schema.Boolean),
  newUser: Schema.optional(Schema.Boolean),
  after_callback_redirect_url: Schema.NullOr(Schema.String),
  afterCallbackRedirectUrl: Schema.NullOr(Schema.String)
})

/** `POST /auth/oauth/token` (form or JSON, no x-stack headers needed). */
export const oauthToken = Endpoint.make({
  name: "Emulator.oauthToken",
  method: "POST",
  path: "/auth/oauth/token",
  access: "none",
  session: "none",
  payload: OAuthTokenRequest,
  payloadEncoding: "form",
  success: OAuthTokenAnswer,
  errors: [
    RefreshTokenNotFoundOrExpired,
    InvalidOauthClientIdOrSecret,
    InvalidPublishableClientKey,
    PublishableClientKeyRequiredForProject,
    InvalidScope,
    InvalidAuthorizationCode,
    MultiFactorAuthenticationRequired
  ]
})

/** `POST /auth/sessions/current/refresh` with `X-Stack-Refresh-Token` → `{access_token}`. */
export const refreshCurrentSession = Endpoint.make({
  name: "Emulator.refreshCurrentSession",
  method: "POST",
  path: "/auth/sessions/current/refresh",
  access: "client",
  session: "none",
  success: Schema.Struct({ access_token: Schema.String }),
  errors: [RefreshTokenNotFoundOrExpired]
})

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

// The server views of `/users/me`, `PATCH`/`DELETE /users/{user_id}`, `POST /users`, `GET /users`
// and `DELETE /users/me` are the SDK's definitions (`src/users/ServerUsers.ts`, `src/users/Users.ts`).

// ---------------------------------------------------------------------------------------------
// OAuth (the service's authorize and callback, and the emulator's mock provider)
// ---------------------------------------------------------------------------------------------

/**
 * The authorize query as the service accepts it: the SDK's (`OAuth.AuthorizeQuery`), except that
 * `code_challenge_method` may be `S256` or `plain`, or be missing (then `plain`, as OAuth 2.0 PKCE
 * says). The SDK always sends `S256`.
 */
export const AuthorizeQueryOfService = wireStruct({
  ...AuthorizeQuery.wireFields,
  codeChallengeMethod: optionalField("code_challenge_method", Schema.Literals(["S256", "plain"]))
})

/**
 * `GET /auth/oauth/authorize/{provider_id}` as the service serves it: {@link AuthorizeQueryOfService}
 * (unknown keys tolerated by the route), answered with a 307 redirect or `{location}` (JSON
 * mode) — the route builds the response itself.
 */
export const oauthAuthorize = Endpoint.make({
  name: "Emulator.oauthAuthorize",
  method: "GET",
  path: "/auth/oauth/authorize/:provider_id",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: AuthorizeQueryOfService,
  success: Schema.instanceOf(Response),
  errors: [
    InvalidOauthClientIdOrSecret,
    InvalidPublishableClientKey,
    PublishableClientKeyRequiredForProject,
    OauthProviderNotFoundOrNotEnabled,
    RedirectUrlNotWhitelisted,
    OauthExtraScopeNotAvailableWithSharedOauthKeys,
    UnparsableAccessToken,
    AccessTokenExpired
  ]
})

/** `GET /auth/oauth/callback/{provider_id}?code&state&iss` (or `error`): the provider sends the browser back. */
export const oauthCallback = Endpoint.make({
  name: "Emulator.oauthCallback",
  method: "GET",
  path: "/auth/oauth/callback/:provider_id",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: Schema.Struct({
    code: Schema.optional(Schema.String),
    state: Schema.optional(Schema.String),
    iss: Schema.optional(Schema.String),
    error: Schema.optional(Schema.String),
    error_description: Schema.optional(Schema.String)
  }),
  success: Schema.instanceOf(Response),
  // the known errors it answers when neither `redirect_uri` nor the error redirect URL is trusted
  errors: [
    OuterOauthTimeout,
    RedirectUrlNotWhitelisted,
    OauthProviderAccessDenied,
    OauthConnectionAlreadyConnectedToAnotherUser,
    ContactChannelAlreadyUsedForAuthBySomeoneElse,
    SignUpNotEnabled,
    OauthProviderTemporarilyUnavailable
  ]
})

/** Parameters of the mock provider's authorization page (query or form), all strings. */
export const MockProviderParameters = Schema.Record(Schema.String, Schema.String)

/** `GET /emulator/oauth-provider/{provider_id}/authorize` (emulator only): consent page, or `auto=1&email=…`. */
export const mockProviderAuthorize = Endpoint.make({
  name: "Emulator.mockProviderAuthorize",
  method: "GET",
  path: "/emulator/oauth-provider/:provider_id/authorize",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: MockProviderParameters,
  success: Schema.instanceOf(Response),
  errors: []
})

/** `POST /emulator/oauth-provider/{provider_id}/authorize` (emulator only): the consent form's answer. */
export const mockProviderApprove = Endpoint.make({
  name: "Emulator.mockProviderApprove",
  method: "POST",
  path: "/emulator/oauth-provider/:provider_id/authorize",
  access: "none",
  session: "none",
  params: Schema.Struct({ provider_id: Schema.String }),
  query: MockProviderParameters,
  payload: MockProviderParameters,
  payloadEncoding: "form",
  success: Schema.instanceOf(Response),
  errors: []
})

/**
 * `POST /check-feature-support` (any or no authentication): any JSON object; answers 200
 * `text/plain` "<feature_name or This feature> is not yet supported. …". The SDK sends it through
 * `StackClient.send` (`Admin.checkFeatureSupport`), the answer not being JSON.
 */
export const checkFeatureSupport = Endpoint.make({
  name: "Emulator.checkFeatureSupport",
  method: "POST",
  path: "/check-feature-support",
  access: "none",
  session: "none",
  payload: Schema.Record(Schema.String, Schema.Unknown),
  success: Schema.String,
  errors: []
})

// ---------------------------------------------------------------------------------------------
// Teams: the service's answers to query shapes the SDK never sends
// ---------------------------------------------------------------------------------------------

/**
 * `GET /team-invitations` with any combination of `team_id` / `user_id` (client+): the overload
 * after the SDK's two list definitions, reached when the query has both or neither (the service
 * answers 400 text "Cannot specify both team_id and user_id" / "Must specify either team_id or
 * user_id").
 */
export const teamInvitationsListAnyQuery = Endpoint.make({
  name: "Emulator.teamInvitationsListAnyQuery",
  method: "GET",
  path: "/team-invitations",
  access: "client",
  session: "optional",
  query: Schema.Struct({ team_id: Schema.optional(Schema.String), user_id: Schema.optional(Schema.String) }),
  success: Schema.Struct({}),
  errors: []
})

/** `DELETE /team-invitations/{id}` without `team_id` (client+): 400 text "team_id is required for deleting a team invitation". */
export const teamInvitationRevokeWithoutTeam = Endpoint.make({
  name: "Emulator.teamInvitationRevokeWithoutTeam",
  method: "DELETE",
  path: "/team-invitations/:id",
  access: "client",
  session: "optional",
  params: Schema.Struct({ id: Uuid }),
  success: Schema.Struct({}),
  errors: []
})

/** `GET /team-member-profiles` without `team_id` with client access: 400 text "team_id is required for access type client". */
export const teamMemberProfilesWithoutTeam = Endpoint.make({
  name: "Emulator.teamMemberProfilesWithoutTeam",
  method: "GET",
  path: "/team-member-profiles",
  access: "client",
  session: "optional",
  query: Schema.Struct({ user_id: Schema.optional(Schema.String) }),
  success: Schema.Struct({}),
  errors: []
})

// ---------------------------------------------------------------------------------------------
// Bodies the service accepts beyond the SDK's
// ---------------------------------------------------------------------------------------------

/** `password_hash`: a Modular-Crypt (bcrypt) hash to import, exclusive with `password` (PROTOCOL.md §3.3). */
const passwordHashField = { passwordHash: optionalField("password_hash", Schema.String) }

/** `POST /users` (server, admin) as the service accepts it: the SDK's body plus `password_hash`. */
export const createUser = Endpoint.make({
  method: ServerUsers.createEndpoint.method,
  path: ServerUsers.createEndpoint.path,
  access: ServerUsers.createEndpoint.access,
  session: ServerUsers.createEndpoint.session,
  successStatus: 201,
  success: ServerUsers.createEndpoint.success,
  errors: ServerUsers.createEndpoint.errors,
  name: "Emulator.createUser",
  payload: wireStruct({ ...ServerUsers.ServerUserCreate.wireFields, ...passwordHashField })
})

/** The server update body of a user as the service accepts it: the SDK's plus `password_hash`. */
export const ServerUserUpdateOfService = wireStruct({ ...ServerUsers.ServerUserUpdate.wireFields, ...passwordHashField })

/** A server update of a user, with `password_hash`. */
export type ServerUserUpdateOfService = typeof ServerUserUpdateOfService.Type

/** `PATCH /users/{user_id}` (server, admin) with `password_hash`. */
export const updateUser = Endpoint.make({
  method: ServerUsers.updateEndpoint.method,
  path: ServerUsers.updateEndpoint.path,
  access: ServerUsers.updateEndpoint.access,
  session: ServerUsers.updateEndpoint.session,
  params: ServerUsers.updateEndpoint.params!,
  success: ServerUsers.updateEndpoint.success,
  errors: ServerUsers.updateEndpoint.errors,
  name: "Emulator.updateUser",
  payload: ServerUserUpdateOfService
})

/** `PATCH /users/me` (server, admin) with `password_hash`. */
export const updateCurrentServerUser = Endpoint.make({
  method: ServerUsers.updateCurrentServerEndpoint.method,
  path: ServerUsers.updateCurrentServerEndpoint.path,
  access: ServerUsers.updateCurrentServerEndpoint.access,
  session: ServerUsers.updateCurrentServerEndpoint.session,
  success: ServerUsers.updateCurrentServerEndpoint.success,
  errors: ServerUsers.updateCurrentServerEndpoint.errors,
  name: "Emulator.updateCurrentServerUser",
  payload: ServerUserUpdateOfService
})

/** A standard OAuth provider as the service accepts it: the SDK's plus `apple_bundle_ids`. */
const StandardOAuthProviderOfService = wireStruct({
  ...Projects.StandardOAuthProviderUpdate.wireFields,
  appleBundleIds: optionalField("apple_bundle_ids", Schema.Array(Schema.String))
})

/** The config change of `PATCH /internal/projects/current` as the service accepts it (`apple_bundle_ids`). */
export const AdminProjectConfigUpdateOfService = wireStruct({
  ...Projects.AdminProjectConfigUpdate.wireFields,
  oauthProviders: optionalField(
    "oauth_providers",
    Schema.Array(Schema.Union([Projects.SharedOAuthProviderUpdate, StandardOAuthProviderOfService]))
  )
})

/** A config change with `apple_bundle_ids`. */
export type AdminProjectConfigUpdateOfService = typeof AdminProjectConfigUpdateOfService.Type

/** `PATCH /internal/projects/current` (admin) as the service accepts it. */
export const updateCurrentProject = Endpoint.make({
  method: Projects.updateCurrentEndpoint.method,
  path: Projects.updateCurrentEndpoint.path,
  access: Projects.updateCurrentEndpoint.access,
  session: Projects.updateCurrentEndpoint.session,
  success: Projects.updateCurrentEndpoint.success,
  errors: Projects.updateCurrentEndpoint.errors,
  name: "Emulator.updateCurrentProject",
  payload: wireStruct({ ...Projects.AdminProjectUpdate.wireFields, config: optionalField("config", AdminProjectConfigUpdateOfService) })
})

/**
 * `GET /teams` with client access as the service takes it: `user_id` optional in the schema, so a
 * client without it gets the service's 403 text (not a schema error).
 */
export const listTeamsAsClient = Endpoint.make({
  name: "Emulator.listTeamsAsClient",
  method: Teams.listMineEndpoint.method,
  path: Teams.listMineEndpoint.path,
  access: Teams.listMineEndpoint.access,
  session: Teams.listMineEndpoint.session,
  query: wireStruct({ userId: optionalField("user_id", Teams.UserIdOrMe) }),
  success: Teams.listMineEndpoint.success,
  errors: Teams.listMineEndpoint.errors
})

// ---------------------------------------------------------------------------------------------
// Server access where the SDK defines only the client endpoint
// ---------------------------------------------------------------------------------------------

/** An endpoint at another access level, with more declared errors. */
export type ServedAt<E extends Endpoint.Any, A extends Endpoint.EndpointAccess, X extends KnownErrorClass> = E extends
  Endpoint.Endpoint<infer N, any, infer U, infer P, infer Q, infer B, infer S, infer Errors> ? Endpoint.Endpoint<N, A, U, P, Q, B, S, Errors | X>
  : never

/**
 * The emulator's own endpoint for a path the service also serves at `access` (server access to a
 * route the SDK calls only as a client): same path, schemas and errors, plus `extraErrors` (what
 * that access level can meet, e.g. `USER_NOT_FOUND` for another user's id).
 */
export const servedAt = <E extends Endpoint.Any, A extends Endpoint.EndpointAccess, X extends KnownErrorClass>(
  endpoint: E,
  access: A,
  extraErrors: ReadonlyArray<X>
): ServedAt<E, A, X> => ({ ...endpoint, access, errors: [...endpoint.errors, ...extraErrors] }) as unknown as ServedAt<E, A, X>

/** The `{api_key_id}` path and the optional `user_id` query of the service's user API key read and update. */
const userApiKeyByIdWire = {
  params: wireStruct({ apiKeyId: field("api_key_id", WireUuid) }),
  query: wireStruct({ userId: optionalField("user_id", UserApiKeys.UserIdOrMe) })
}

/**
 * The read and update of one user API key as the service serves them (client access): the SDK's
 * endpoints (same names), except that `user_id` may be left out: the service's query schema has
 * `user_id` optional, and its `onRead` / `onUpdate` find the key by id and check the caller against
 * the key's owner (`apps/backend/src/app/api/latest/(api-keys)/handlers.tsx` at
 * stack-auth/stack-auth 2f719903b181c20940159e9f3aaaa99bc3ec3b0f).
 */
export const userApiKeyOfService = {
  get: Endpoint.make({
    name: "UserApiKeys.get",
    method: "GET",
    path: "/user-api-keys/:api_key_id",
    access: "client",
    session: "required",
    ...userApiKeyByIdWire,
    success: UserApiKeys.UserApiKey,
    errors: [ApiKeyNotFound, UserAuthenticationRequired]
  }),
  update: Endpoint.make({
    name: "UserApiKeys.update",
    method: "PATCH",
    path: "/user-api-keys/:api_key_id",
    access: "client",
    session: "required",
    ...userApiKeyByIdWire,
    payload: wireStruct({
      description: optionalField("description", Schema.String),
      revoked: optionalField("revoked", Schema.Literal(true))
    }),
    success: UserApiKeys.UserApiKey,
    errors: [ApiKeyNotFound, UserAuthenticationRequired]
  })
}

/** Server access to a user's API keys (list and create: `user_id` any existing user, `USER_NOT_FOUND` otherwise). */
export const serverUserApiKeys = {
  list: servedAt(UserApiKeys.listEndpoint, "server", [UserNotFound]),
  create: servedAt(UserApiKeys.createEndpoint, "server", [UserNotFound]),
  get: servedAt(userApiKeyOfService.get, "server", [UserNotFound]),
  update: servedAt(userApiKeyOfService.update, "server", [UserNotFound])
}

/** Server access to a user's connected accounts and OAuth providers (`USER_NOT_FOUND` for an unknown user). */
export const serverConnectedAccounts = {
  list: servedAt(ConnectedAccounts.listEndpoint, "server", [UserNotFound]),
  accessToken: servedAt(ConnectedAccounts.accessTokenEndpoint, "server", [UserNotFound]),
  accountAccessToken: servedAt(ConnectedAccounts.accountAccessTokenEndpoint, "server", [UserNotFound]),
  listOAuthProviders: servedAt(ConnectedAccounts.listOAuthProvidersEndpoint, "server", [UserNotFound])
}

// ---------------------------------------------------------------------------------------------
// A user's OAuth provider connections (`/oauth-providers/{user_id}/{id}`, `POST /oauth-providers`)
// ---------------------------------------------------------------------------------------------

// the connection id is a uuid (a malformed one is a SCHEMA_ERROR, as the service checks it)
const ConnectionParams = wireStruct({ userId: field("user_id", Schema.String), providerId: field("provider_id", WireUuid) })

/** `GET /oauth-providers/{user_id|me}/{id}` (client+): one connection of a user. */
export const getOAuthProvider = Endpoint.make({
  name: "Emulator.getOAuthProvider",
  method: "GET",
  path: "/oauth-providers/:user_id/:provider_id",
  access: "client",
  session: "optional",
  params: ConnectionParams,
  success: ConnectedAccounts.OAuthProviderConnection,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `PATCH /oauth-providers/{user_id|me}/{id}` (client+): `allow_sign_in`, `allow_connected_accounts` (server also `email`, `account_id`). */
export const updateOAuthProvider = Endpoint.make({
  name: "Emulator.updateOAuthProvider",
  method: "PATCH",
  path: "/oauth-providers/:user_id/:provider_id",
  access: "client",
  session: "optional",
  params: ConnectionParams,
  payload: wireStruct({
    allowSignIn: optionalField("allow_sign_in", Schema.Boolean),
    allowConnectedAccounts: optionalField("allow_connected_accounts", Schema.Boolean),
    email: optionalField("email", Schema.String),
    accountId: optionalField("account_id", Schema.String)
  }),
  success: ConnectedAccounts.OAuthProviderConnection,
  errors: [CannotGetOwnUserWithoutUser, OauthProviderAccountIdAlreadyUsedForSignIn]
})

/** `DELETE /oauth-providers/{user_id|me}/{id}` (client+): removes a connection. */
export const deleteOAuthProvider = Endpoint.make({
  name: "Emulator.deleteOAuthProvider",
  method: "DELETE",
  path: "/oauth-providers/:user_id/:provider_id",
  access: "client",
  session: "optional",
  params: ConnectionParams,
  success: Schema.Struct({ success: Schema.Literal(true) }),
  errors: [CannotGetOwnUserWithoutUser]
})

/**
 * `POST /oauth-providers` (server): links a provider account to a user (`user_id` may be `me`,
 * the request's user: `CANNOT_GET_OWN_USER_WITHOUT_USER` without one).
 */
export const createOAuthProvider = Endpoint.make({
  name: "Emulator.createOAuthProvider",
  method: "POST",
  path: "/oauth-providers",
  access: "server",
  session: "none",
  payload: wireStruct({
    userId: field("user_id", Schema.String),
    providerConfigId: field("provider_config_id", Schema.String),
    accountId: field("account_id", Schema.String),
    email: optionalField("email", Schema.String),
    allowSignIn: field("allow_sign_in", Schema.Boolean),
    allowConnectedAccounts: field("allow_connected_accounts", Schema.Boolean)
  }),
  successStatus: 201,
  success: ConnectedAccounts.OAuthProviderConnection,
  errors: [CannotGetOwnUserWithoutUser, UserNotFound, OauthProviderAccountIdAlreadyUsedForSignIn, OauthConnectionAlreadyConnectedToAnotherUser]
})

/** Server access to one connection of any user (`USER_NOT_FOUND` for an unknown user). */
export const serverOAuthProviders = {
  get: servedAt(getOAuthProvider, "server", [UserNotFound]),
  update: servedAt(updateOAuthProvider, "server", [UserNotFound]),
  delete: servedAt(deleteOAuthProvider, "server", [UserNotFound])
}
