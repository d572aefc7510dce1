/**
 * Users with server access (PROTOCOL.md §3.3): list (one page, or every page as a lazy stream),
 * create, update and delete any user; the server view of `/users/me` for the session's user; and
 * the user behind an incoming request (`fromRequest`). `getById` lives in `Users.ts`.
 *
 * @module
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as Endpoint from "../core/Endpoint.js"
import { InvalidArgument } from "../core/Errors.js"
import {
  CannotGetOwnUserWithoutUser,
  PasswordTooLong,
  PasswordTooShort,
  UserEmailAlreadyExists,
  UserNotFound
} from "../core/KnownErrors.js"
import { field, Json, optionalField, QueryBoolean, SuccessTrue, Uuid } from "../core/Wire.js"
import * as RequestTokenStore from "../session/RequestTokenStore.js"
import * as Session from "../session/Session.js"
import { OAuthProviderLink, ServerUser } from "./User.js"

// ---------------------------------------------------------------------------------------------
// Wire shapes
// ---------------------------------------------------------------------------------------------

/** `"true"` / `"false"` in a query string, a boolean in the domain (defined in `core/Wire.ts`). */
export { QueryBoolean } from "../core/Wire.js"

/** A decimal integer ≥ 1 in a query string. */
export const QueryPositiveInt = Schema.NumberFromString.pipe(Schema.int(), Schema.greaterThanOrEqualTo(1))

/** Sign-up risk scores (0–100 each). */
export const RiskScoresInput = Schema.Struct({
  signUp: field(
    "sign_up",
    Schema.Struct({
      bot: Schema.Int.pipe(Schema.between(0, 100)),
      freeTrialAbuse: field("free_trial_abuse", Schema.Int.pipe(Schema.between(0, 100)))
    })
  )
})

const updateFields = {
  displayName: optionalField("display_name", Schema.NullOr(Schema.String.pipe(Schema.maxLength(256)))),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  clientMetadata: optionalField("client_metadata", Json),
  clientReadOnlyMetadata: optionalField("client_read_only_metadata", Json),
  serverMetadata: optionalField("server_metadata", Json),
  primaryEmail: optionalField("primary_email", Schema.NullOr(Schema.String.pipe(Schema.minLength(1)))),
  primaryEmailVerified: optionalField("primary_email_verified", Schema.Boolean),
  primaryEmailAuthEnabled: optionalField("primary_email_auth_enabled", Schema.Boolean),
  passkeyAuthEnabled: optionalField("passkey_auth_enabled", Schema.Boolean),
  otpAuthEnabled: optionalField("otp_auth_enabled", Schema.Boolean),
  /** A new password (≤ 70 characters) or null to remove it; revokes every session of the user. */
  password: optionalField("password", Schema.NullOr(Schema.String)),
  totpSecretBase64: optionalField("totp_secret_base64", Schema.NullOr(Schema.String)),
  restrictedByAdmin: optionalField("restricted_by_admin", Schema.Boolean),
  restrictedByAdminReason: optionalField("restricted_by_admin_reason", Schema.NullOr(Schema.String)),
  restrictedByAdminPrivateDetails: optionalField("restricted_by_admin_private_details", Schema.NullOr(Schema.String)),
  countryCode: optionalField("country_code", Schema.NullOr(Schema.String)),
  riskScores: optionalField("risk_scores", RiskScoresInput)
}

/**
 * The server update body of a user (all optional). `password_hash` is not offered: the SDK sends
 * passwords, never hashes.
 */
export const ServerUserUpdate = Schema.Struct({
  ...updateFields,
  selectedTeamId: optionalField("selected_team_id", Schema.NullOr(Uuid)),
  /** Only `false`: upgrades an anonymous user. */
  isAnonymous: optionalField("is_anonymous", Schema.Literal(false))
})

/** A server update of a user. */
export type ServerUserUpdate = typeof ServerUserUpdate.Type

/** The server create body: the update body without `selected_team_id`, plus OAuth links and `is_anonymous`. */
export const ServerUserCreate = Schema.Struct({
  ...updateFields,
  oauthProviders: optionalField("oauth_providers", Schema.Array(OAuthProviderLink)),
  isAnonymous: optionalField("is_anonymous", Schema.Boolean)
})

/** A user to create with server access. */
export type ServerUserCreate = typeof ServerUserCreate.Type

/** Query of `GET /users` (domain names; wire names snake_case, booleans as `"true"`/`"false"`). */
export const ListQuery = Schema.Struct({
  limit: optionalField("limit", QueryPositiveInt),
  cursor: optionalField("cursor", Uuid),
  orderBy: optionalField("order_by", Schema.Literal("signed_up_at")),
  desc: optionalField("desc", QueryBoolean),
  query: optionalField("query", Schema.String),
  teamId: optionalField("team_id", Uuid),
  includeRestricted: optionalField("include_restricted", QueryBoolean),
  includeAnonymous: optionalField("include_anonymous", QueryBoolean),
  onlyAnonymous: optionalField("only_anonymous", QueryBoolean)
})

/**
 * Options of {@link list}: the query of `GET /users`. `onlyAnonymous: true` lists anonymous users
 * only; the service requires `include_anonymous=true` with it, so {@link list} sends that unless
 * `includeAnonymous: false` is given, which contradicts it (`InvalidArgument`, nothing sent).
 */
export type ListOptions = typeof ListQuery.Type

/** One page of `GET /users`, wire shape decoded. */
export const UserPage = Schema.Struct({
  items: Schema.Array(ServerUser),
  isPaginated: field("is_paginated", Schema.Literal(true)),
  pagination: Schema.Struct({ nextCursor: field("next_cursor", Schema.NullOr(Schema.String)) })
})

/** One page of `GET /users`. */
export type UserPage = typeof UserPage.Type

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** `GET /users` (server, admin): paginated list; restricted and anonymous users excluded by default. */
export const listEndpoint = Endpoint.make({
  name: "Users.list",
  method: "GET",
  path: "/users",
  access: "server",
  session: "none",
  query: ListQuery,
  success: UserPage,
  errors: []
})

/** `POST /users` (server, admin): 201 and the new user. */
export const createEndpoint = Endpoint.make({
  name: "Users.create",
  method: "POST",
  path: "/users",
  access: "server",
  session: "none",
  payload: ServerUserCreate,
  success: ServerUser,
  successStatus: 201,
  errors: [UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong]
})

/** `PATCH /users/{user_id}` (server, admin): the server update body. */
export const updateEndpoint = Endpoint.make({
  name: "Users.update",
  method: "PATCH",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: Schema.Struct({ userId: field("user_id", Uuid) }),
  payload: ServerUserUpdate,
  success: ServerUser,
  errors: [UserNotFound, UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong]
})

/** `DELETE /users/{user_id}` (server, admin). */
export const deleteEndpoint = Endpoint.make({
  name: "Users.delete",
  method: "DELETE",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: Schema.Struct({ userId: field("user_id", Uuid) }),
  success: SuccessTrue,
  errors: [UserNotFound]
})

/** `GET /users/me` with server (or admin) access: the server view of the session's user. */
export const getCurrentServerEndpoint = Endpoint.make({
  name: "Users.getCurrentServer",
  method: "GET",
  path: "/users/me",
  access: "server",
  session: "required",
  success: ServerUser,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `PATCH /users/me` with server (or admin) access: the server update body, the server view. */
export const updateCurrentServerEndpoint = Endpoint.make({
  name: "Users.updateCurrentServer",
  method: "PATCH",
  path: "/users/me",
  access: "server",
  session: "required",
  payload: ServerUserUpdate,
  success: ServerUser,
  errors: [CannotGetOwnUserWithoutUser, UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong]
})

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/** One page of users and the cursor of the next page (`none` on the last page). */
export interface UserList {
  readonly items: ReadonlyArray<ServerUser>
  readonly nextCursor: Option.Option<string>
}

/**
 * One page of the project's users, server view, ordered by sign-up time then id (`desc` reverses).
 * `GET /users`; needs server access. Without `limit` the service answers every user in one page.
 * Pass `nextCursor` as `cursor` for the next page. Restricted and anonymous users are left out
 * unless `includeRestricted` / `includeAnonymous` (which also includes restricted users).
 * `onlyAnonymous: true` lists only anonymous users and implies `includeAnonymous: true` (the service
 * answers an untyped 400 to `only_anonymous` without `include_anonymous=true`); with an explicit
 * `includeAnonymous: false` it fails with `InvalidArgument` (`argument: "onlyAnonymous"`) before
 * any request.
 */
export const list = Effect.fn("Users.list")(function* (options: ListOptions = {}) {
  if (options.onlyAnonymous === true && options.includeAnonymous === false) {
    return yield* Effect.fail(
      new InvalidArgument({
        message: "onlyAnonymous: true lists anonymous users, which includeAnonymous: false leaves out; drop includeAnonymous (onlyAnonymous implies it) or onlyAnonymous.",
        argument: "onlyAnonymous"
      })
    )
  }
  const query: ListOptions = options.onlyAnonymous === true ? { ...options, includeAnonymous: true } : options
  const page = yield* Endpoint.call(listEndpoint, { query })
  const result: UserList = { items: page.items, nextCursor: Option.fromNullable(page.pagination.nextCursor) }
  return result
})

/**
 * Every user matching `options`, walked page by page lazily: one `GET /users` per page of
 * `limit` users (default 100), the next page requested only when the stream is pulled that far.
 * Any `cursor` in `options` is the starting point.
 */
export const stream = (options: ListOptions = {}) => {
  const limit = options.limit ?? 100
  return Stream.paginateChunkEffect(options.cursor, (cursor: string | undefined) =>
    list({ ...options, limit, ...(cursor === undefined ? {} : { cursor }) }).pipe(
      Effect.map((page) => [Chunk.fromIterable(page.items), page.nextCursor] as const)
    )
  )
}

/**
 * Creates a user. `POST /users` (201); needs server access. A `password` is hashed by the service;
 * `oauthProviders` links provider accounts; `isAnonymous` makes an anonymous user.
 * Fails with `UserEmailAlreadyExists`, `PasswordTooShort` / `PasswordTooLong`.
 */
export const create = Effect.fn("Users.create")(function* (user: ServerUserCreate) {
  return yield* Endpoint.call(createEndpoint, { payload: user })
})

/**
 * Updates any user. `PATCH /users/{user_id}`; needs server access. A new `password` revokes every
 * session of the user. Fails with `UserNotFound`, `UserEmailAlreadyExists`, `PasswordTooShort` /
 * `PasswordTooLong`.
 */
export const update = Effect.fn("Users.update")(function* (userId: string, update: ServerUserUpdate) {
  return yield* Endpoint.call(updateEndpoint, { params: { userId }, payload: update })
})

/**
 * Deletes any user with its sessions. `DELETE /users/{user_id}`; needs server access.
 * Fails with `UserNotFound`. Also exported as `delete`.
 */
export const deleteUser = Effect.fn("Users.delete")(function* (userId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { userId } })
})

export { deleteUser as delete }

/**
 * The session's user, server view (`serverMetadata`, `lastActiveAt`…), or `Option.none()` when
 * nobody is signed in. `GET /users/me` with server access.
 */
export const getCurrentServer = Effect.fn("Users.getCurrentServer")(function* () {
  return yield* currentServer()
})

// The body of `getCurrentServer`, without its span (`fromRequest` has its own).
const currentServer = () =>
  Endpoint.call(getCurrentServerEndpoint, {}).pipe(
    Effect.map(Option.some),
    Effect.catchTags({
      UserNotSignedIn: () => Effect.succeed(Option.none<ServerUser>()),
      CannotGetOwnUserWithoutUser: () => Effect.succeed(Option.none<ServerUser>())
    })
  )

/**
 * Updates the session's user with the server update body. `PATCH /users/me` with server access.
 * Fails with `UserNotSignedIn`, `UserEmailAlreadyExists`, `PasswordTooShort` / `PasswordTooLong`.
 */
export const updateCurrentServer = Effect.fn("Users.updateCurrentServer")(function* (update: ServerUserUpdate) {
  return yield* Endpoint.call(updateCurrentServerEndpoint, { payload: update })
})

/**
 * The user behind an incoming request, server view, or `Option.none()` when the request carries
 * no (live) session. The tokens come from the request's `x-stack-auth` header, else its cookies
 * (`RequestTokenStore`); a session is built for this call only (a refresh stays in it).
 * `GET /users/me` with server access. Fails with `TokenStoreError` for a malformed `x-stack-auth`.
 *
 * @example
 * ```ts
 * import { ServerUsers } from "stack-auth-effect"
 *
 * declare const projectId: string // your project's id
 * const handler = (request: Request) => ServerUsers.fromRequest(request, { projectId })
 * ```
 */
export const fromRequest = Effect.fn("Users.fromRequest")(function* (
  request: RequestTokenStore.RequestLike,
  options: RequestTokenStore.RequestTokenStoreOptions
) {
  const tokens = yield* RequestTokenStore.readRequestTokens(request, options)
  const session = yield* Session.makeForRequest(tokens)
  return yield* currentServer().pipe(Effect.provideService(Session.Session, session))
})
