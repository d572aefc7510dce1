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
export const QueryPositiveInt = /* @__PURE__ */ Schema.NumberFromString.pipe(/* @__PURE__ */ Schema.int(), /* @__PURE__ */ Schema.greaterThanOrEqualTo(1))

/** Sign-up risk scores (0–100 each). */
export const RiskScoresInput = /* @__PURE__ */ Schema.Struct({
  signUp: /* @__PURE__ */ field(
    "sign_up",
    /* @__PURE__ */ Schema.Struct({
      bot: /* @__PURE__ */ Schema.Int.pipe(/* @__PURE__ */ Schema.between(0, 100)),
      freeTrialAbuse: /* @__PURE__ */ field("free_trial_abuse", /* @__PURE__ */ Schema.Int.pipe(/* @__PURE__ */ Schema.between(0, 100)))
    })
  )
})

const updateFields = {
  displayName: /* @__PURE__ */ optionalField("display_name", /* @__PURE__ */ Schema.NullOr(/* @__PURE__ */ Schema.String.pipe(/* @__PURE__ */ Schema.maxLength(256)))),
  profileImageUrl: /* @__PURE__ */ optionalField("profile_image_url", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  clientMetadata: /* @__PURE__ */ optionalField("client_metadata", Json),
  clientReadOnlyMetadata: /* @__PURE__ */ optionalField("client_read_only_metadata", Json),
  serverMetadata: /* @__PURE__ */ optionalField("server_metadata", Json),
  primaryEmail: /* @__PURE__ */ optionalField("primary_email", /* @__PURE__ */ Schema.NullOr(/* @__PURE__ */ Schema.String.pipe(/* @__PURE__ */ Schema.minLength(1)))),
  primaryEmailVerified: /* @__PURE__ */ optionalField("primary_email_verified", Schema.Boolean),
  primaryEmailAuthEnabled: /* @__PURE__ */ optionalField("primary_email_auth_enabled", Schema.Boolean),
  passkeyAuthEnabled: /* @__PURE__ */ optionalField("passkey_auth_enabled", Schema.Boolean),
  otpAuthEnabled: /* @__PURE__ */ optionalField("otp_auth_enabled", Schema.Boolean),
  /** A new password (≤ 70 characters) or null to remove it; revokes every session of the user. */
  password: /* @__PURE__ */ optionalField("password", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  totpSecretBase64: /* @__PURE__ */ optionalField("totp_secret_base64", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  restrictedByAdmin: /* @__PURE__ */ optionalField("restricted_by_admin", Schema.Boolean),
  restrictedByAdminReason: /* @__PURE__ */ optionalField("restricted_by_admin_reason", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  restrictedByAdminPrivateDetails: /* @__PURE__ */ optionalField("restricted_by_admin_private_details", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  countryCode: /* @__PURE__ */ optionalField("country_code", /* @__PURE__ */ Schema.NullOr(Schema.String)),
  riskScores: /* @__PURE__ */ optionalField("risk_scores", RiskScoresInput)
}

/**
 * The server update body of a user (all optional). `password_hash` is not offered: the SDK sends
 * passwords, never hashes.
 */
export const ServerUserUpdate = /* @__PURE__ */ Schema.Struct({
  ...updateFields,
  selectedTeamId: /* @__PURE__ */ optionalField("selected_team_id", /* @__PURE__ */ Schema.NullOr(Uuid)),
  /** Only `false`: upgrades an anonymous user. */
  isAnonymous: /* @__PURE__ */ optionalField("is_anonymous", /* @__PURE__ */ Schema.Literal(false))
})

/** A server update of a user. */
export type ServerUserUpdate = typeof ServerUserUpdate.Type

/** The server create body: the update body without `selected_team_id`, plus OAuth links and `is_anonymous`. */
export const ServerUserCreate = /* @__PURE__ */ Schema.Struct({
  ...updateFields,
  oauthProviders: /* @__PURE__ */ optionalField("oauth_providers", /* @__PURE__ */ Schema.Array(OAuthProviderLink)),
  isAnonymous: /* @__PURE__ */ optionalField("is_anonymous", Schema.Boolean)
})

/** A user to create with server access. */
export type ServerUserCreate = typeof ServerUserCreate.Type

/** Query of `GET /users` (domain names; wire names snake_case, booleans as `"true"`/`"false"`). */
export const ListQuery = /* @__PURE__ */ Schema.Struct({
  limit: /* @__PURE__ */ optionalField("limit", QueryPositiveInt),
  cursor: /* @__PURE__ */ optionalField("cursor", Uuid),
  orderBy: /* @__PURE__ */ optionalField("order_by", /* @__PURE__ */ Schema.Literal("signed_up_at")),
  desc: /* @__PURE__ */ optionalField("desc", QueryBoolean),
  query: /* @__PURE__ */ optionalField("query", Schema.String),
  teamId: /* @__PURE__ */ optionalField("team_id", Uuid),
  includeRestricted: /* @__PURE__ */ optionalField("include_restricted", QueryBoolean),
  includeAnonymous: /* @__PURE__ */ optionalField("include_anonymous", QueryBoolean),
  onlyAnonymous: /* @__PURE__ */ optionalField("only_anonymous", QueryBoolean)
})

/**
 * Options of {@link list}: the query of `GET /users`. `onlyAnonymous: true` lists anonymous users
 * only; the service requires `include_anonymous=true` with it, so {@link list} sends that unless
 * `includeAnonymous: false` is given, which contradicts it (`InvalidArgument`, nothing sent).
 */
export type ListOptions = typeof ListQuery.Type

/** One page of `GET /users`, wire shape decoded. */
export const UserPage = /* @__PURE__ */ Schema.Struct({
  items: /* @__PURE__ */ Schema.Array(ServerUser),
  isPaginated: /* @__PURE__ */ field("is_paginated", /* @__PURE__ */ Schema.Literal(true)),
  pagination: /* @__PURE__ */ Schema.Struct({ nextCursor: /* @__PURE__ */ field("next_cursor", /* @__PURE__ */ Schema.NullOr(Schema.String)) })
})

/** One page of `GET /users`. */
export type UserPage = typeof UserPage.Type

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

/** `GET /users` (server, admin): paginated list; restricted and anonymous users excluded by default. */
export const listEndpoint = /* @__PURE__ */ Endpoint.make({
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
export const createEndpoint = /* @__PURE__ */ Endpoint.make({
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
export const updateEndpoint = /* @__PURE__ */ Endpoint.make({
  name: "Users.update",
  method: "PATCH",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: /* @__PURE__ */ Schema.Struct({ userId: /* @__PURE__ */ field("user_id", Uuid) }),
  payload: ServerUserUpdate,
  success: ServerUser,
  errors: [UserNotFound, UserEmailAlreadyExists, PasswordTooShort, PasswordTooLong]
})

/** `DELETE /users/{user_id}` (server, admin). */
export const deleteEndpoint = /* @__PURE__ */ Endpoint.make({
  name: "Users.delete",
  method: "DELETE",
  path: "/users/:user_id",
  access: "server",
  session: "none",
  params: /* @__PURE__ */ Schema.Struct({ userId: /* @__PURE__ */ field("user_id", Uuid) }),
  success: SuccessTrue,
  errors: [UserNotFound]
})

/** `GET /users/me` with server (or admin) access: the server view of the session's user. */
export const getCurrentServerEndpoint = /* @__PURE__ */ Endpoint.make({
  name: "Users.getCurrentServer",
  method: "GET",
  path: "/users/me",
  access: "server",
  session: "required",
  success: ServerUser,
  errors: [CannotGetOwnUserWithoutUser]
})

/** `PATCH /users/me` with server (or admin) access: the server update body, the server view. */
export const updateCurrentServerEndpoint = /* @__PURE__ */ Endpoint.make({
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
export const list = /* @__PURE__ */ Effect.fn("Users.list")(function* (options: ListOptions = {}) {
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
export const create = /* @__PURE__ */ Effect.fn("Users.create")(function* (user: ServerUserCreate) {
  return yield* Endpoint.call(createEndpoint, { payload: user })
})

/**
 * Updates any user. `PATCH /users/{user_id}`; needs server access. A new `password` revokes every
 * session of the user. Fails with `UserNotFound`, `UserEmailAlreadyExists`, `PasswordTooShort` /
 * `PasswordTooLong`.
 */
export const update = /* @__PURE__ */ Effect.fn("Users.update")(function* (userId: string, update: ServerUserUpdate) {
  return yield* Endpoint.call(updateEndpoint, { params: { userId }, payload: update })
})

/**
 * Deletes any user with its sessions. `DELETE /users/{user_id}`; needs server access.
 * Fails with `UserNotFound`. Also exported as `delete`.
 */
export const deleteUser = /* @__PURE__ */ Effect.fn("Users.delete")(function* (userId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { userId } })
})

export { deleteUser as delete }

/**
 * The session's user, server view (`serverMetadata`, `lastActiveAt`…), or `Option.none()` when
 * nobody is signed in. `GET /users/me` with server access.
 */
export const getCurrentServer = /* @__PURE__ */ Effect.fn("Users.getCurrentServer")(function* () {
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
export const updateCurrentServer = /* @__PURE__ */ Effect.fn("Users.updateCurrentServer")(function* (update: ServerUserUpdate) {
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
export const fromRequest = /* @__PURE__ */ Effect.fn("Users.fromRequest")(function* (
  request: RequestTokenStore.RequestLike,
  options: RequestTokenStore.RequestTokenStoreOptions
) {
  const tokens = yield* RequestTokenStore.readRequestTokens(request, options)
  const session = yield* Session.makeForRequest(tokens)
  return yield* currentServer().pipe(Effect.provideService(Session.Session, session))
})
