/**
 * Users with server access (PROTOCOL.md §3.3): list (one page, or every page as a lazy stream),
 * create, update and delete any user; the server view of `/users/me` for the session's user; and
 * any user by id (`getById`), and the user behind an incoming request (`fromRequest`). The same
 * names as `Users` (the signed-in user, client access) where both have the call.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as Endpoint from "../core/Endpoint.js"
import * as GetUser from "../auth/GetUser.js"
import * as ServerUserApiKeys from "../api-keys/ServerUserApiKeys.js"
import { InvalidArgument } from "../core/Errors.js"
import * as RequestTokenStore from "../session/RequestTokenStore.js"
import * as Session from "../session/Session.js"
import type { TokenStoreError } from "../session/TokenStore.js"
import { ServerUser } from "./User.js"
import {
  createEndpoint,
  deleteEndpoint,
  getByIdEndpoint,
  getCurrentServerEndpoint,
  listEndpoint,
  ListQuery,
  ServerUserCreate,
  ServerUserUpdate,
  updateCurrentServerEndpoint,
  updateEndpoint
} from "./internal/serverUsers.js"

/** The domain's schemas, defined with its wire definitions (`internal/serverUsers.ts`). */
export { RiskScoresInput, ServerUserCreate, ServerUserUpdate, UserPage } from "./internal/serverUsers.js"

// ---------------------------------------------------------------------------------------------
// Wire shapes
// ---------------------------------------------------------------------------------------------

/**
 * Options of {@link list}: the query of `GET /users`. `onlyAnonymous: true` lists anonymous users
 * only; the service requires `include_anonymous=true` with it, so {@link list} sends that unless
 * `includeAnonymous: false` is given, which contradicts it (`InvalidArgument`, nothing sent).
 */
export type ListOptions = typeof ListQuery.Type

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
export const list = Effect.fn("ServerUsers.list")(function* (options: ListOptions = {}) {
  if (options.onlyAnonymous === true && options.includeAnonymous === false) {
    return yield* Effect.fail(
      new InvalidArgument({
        message:
          "onlyAnonymous: true lists anonymous users, which includeAnonymous: false leaves out; drop includeAnonymous (onlyAnonymous implies it) or onlyAnonymous.",
        argument: "onlyAnonymous"
      })
    )
  }
  const query: ListOptions = options.onlyAnonymous === true ? { ...options, includeAnonymous: true } : options
  const page = yield* Endpoint.call(listEndpoint, { query })
  const result: UserList = { items: page.items, nextCursor: Option.fromNullishOr(page.pagination.nextCursor) }
  return result
})

/**
 * Every user matching `options`, walked page by page lazily: one `GET /users` per page of
 * `limit` users (default 100), the next page requested only when the stream is pulled that far.
 * Any `cursor` in `options` is the starting point.
 */
export const stream = (options: ListOptions = {}) => {
  const limit = options.limit ?? 100
  return Stream.paginate(
    options.cursor,
    (cursor: string | undefined) =>
      list({ ...options, limit, ...(cursor === undefined ? {} : { cursor }) }).pipe(
        Effect.map((page) => [page.items, page.nextCursor] as const)
      )
  )
}

/**
 * Creates a user. `POST /users` (201); needs server access. A `password` is hashed by the service;
 * `oauthProviders` links provider accounts; `isAnonymous` makes an anonymous user.
 * Fails with `UserEmailAlreadyExists`, `PasswordTooShort` / `PasswordTooLong`.
 */
export const create = Effect.fn("ServerUsers.create")(function* (user: ServerUserCreate) {
  return yield* Endpoint.call(createEndpoint, { payload: user })
})

/**
 * Updates any user. `PATCH /users/{user_id}`; needs server access. A new `password` revokes every
 * session of the user. Fails with `UserNotFound`, `UserEmailAlreadyExists`, `PasswordTooShort` /
 * `PasswordTooLong`.
 */
export const update = Effect.fn("ServerUsers.update")(function* (userId: string, update: ServerUserUpdate) {
  return yield* Endpoint.call(updateEndpoint, { params: { userId }, payload: update })
})

/**
 * Deletes any user with its sessions. `DELETE /users/{user_id}`; needs server access.
 * Fails with `UserNotFound`. Also exported as `delete`.
 */
export const deleteUser = Effect.fn("ServerUsers.delete")(function* (userId: string) {
  yield* Endpoint.call(deleteEndpoint, { params: { userId } })
})

export { deleteUser as delete }

/**
 * Any user of the project by id, server view. `GET /users/{user_id}`; needs server access.
 * Fails with `UserNotFound`.
 */
export const getById = Effect.fn("ServerUsers.getById")(function* (userId: string) {
  return yield* Endpoint.call(getByIdEndpoint, { params: { userId } })
})

/**
 * The user a user API key belongs to (the official `getUser({ apiKey })`), or `Option.none()`
 * when the value is not a valid key (not found, a team key, revoked, expired: the
 * API_KEY_NOT_VALID family). `POST /user-api-keys/check`, then `GET /users/{user_id}`; needs
 * server access. Fails with `UserApiKeys.UserApiKeysNotEnabled` when the project has no user API keys.
 */
export const getByApiKey = Effect.fn("ServerUsers.getByApiKey")(function* (apiKey: string | Redacted.Redacted<string>) {
  const key = yield* ServerUserApiKeys.checkOrNone(apiKey)
  if (Option.isNone(key)) return Option.none<ServerUser>()
  return Option.some(yield* Endpoint.call(getByIdEndpoint, { params: { userId: key.value.userId } }))
})

/**
 * The session's user, server view (`serverMetadata`, `lastActiveAt`…), or `Option.none()` when
 * nobody is signed in. `GET /users/me` with server access.
 */
export const getCurrent = Effect.fn("ServerUsers.getCurrent")(function* () {
  return yield* currentServer()
})

// Nobody signed in, as `Option.none()`.
const orNone = <E, R>(read: Effect.Effect<ServerUser, E, R>) =>
  read.pipe(
    Effect.map(Option.some),
    Effect.catchTags({
      UserNotSignedIn: () => Effect.succeed(Option.none<ServerUser>()),
      CannotGetOwnUserWithoutUser: () => Effect.succeed(Option.none<ServerUser>())
    })
  )

// The body of `getCurrent`, without its span.
const currentServer = () => orNone(Endpoint.call(getCurrentServerEndpoint, {}))

/** The errors of reading the session's user with server access ({@link getCurrent}). */
export type GetCurrentError = Effect.Error<ReturnType<typeof getCurrent>>

/** The services {@link getUser} needs: server access and the session, plus the anonymous sign-up's. */
export type GetUserRequirements = Effect.Services<ReturnType<typeof getCurrent>> | GetUser.SignUpRequirements

/**
 * The session's user, server view, with the official server app's `getUser({ or })` policies
 * (the same as `GetUser.getUser`, see its table): `"return-null"` (default) → `Option.none()`
 * when nobody (allowed) is signed in; `"throw"` → `UserNotSignedIn`; `"redirect"` → the sign-in
 * page (or onboarding for a restricted user) through the app's navigation, never completing
 * (`NavigationUnavailable` where there is none); `"anonymous"` → signs up an anonymous user in the
 * session (`POST /auth/anonymous/sign-up`) and returns it; `"anonymous-if-exists"` → an existing
 * anonymous user or `Option.none()`. Anonymous users count as signed out unless an anonymous
 * policy allows them; restricted ones unless `includeRestricted`.
 * `GET /users/me` with server access. For an incoming request's user, provide a session made
 * from the request (`Session.makeForRequest`) or use {@link fromRequest}.
 *
 * @example
 * ```ts
 * import { Effect } from "effect"
 * import { ServerUsers } from "stack-auth-effect"
 *
 * const page = Effect.gen(function* () {
 *   const user = yield* ServerUsers.getUser({ or: "throw" })
 *   return user.serverMetadata
 * })
 * ```
 */
export const getUser = <const O extends GetUser.Or = "return-null">(
  options?: GetUser.GetUserOptions<O>
): Effect.Effect<GetUser.GetUserSuccess<O, ServerUser>, GetUser.GetUserError<O, GetCurrentError>, GetUserRequirements> =>
  getUserImpl(options ?? {}) as Effect.Effect<
    GetUser.GetUserSuccess<O, ServerUser>,
    GetUser.GetUserError<O, GetCurrentError>,
    GetUserRequirements
  >

const getUserImpl = Effect.fn("ServerUsers.getUser")(function* (options: GetUser.GetUserOptions) {
  return yield* GetUser.withPolicy(currentServer(), options)
})

/**
 * Updates the session's user with the server update body. `PATCH /users/me` with server access.
 * Fails with `UserNotSignedIn`, `UserEmailAlreadyExists`, `PasswordTooShort` / `PasswordTooLong`.
 */
export const updateCurrent = Effect.fn("ServerUsers.updateCurrent")(function* (update: ServerUserUpdate) {
  return yield* Endpoint.call(updateCurrentServerEndpoint, { payload: update })
})

/** The errors of {@link fromRequest}: a malformed `x-stack-auth` header, and those of reading the user with server access. */
export type FromRequestError = TokenStoreError | Effect.Error<ReturnType<typeof currentServer>>

/** The services {@link fromRequest} needs: server access (its session is made from the request). */
export type FromRequestRequirements = Exclude<Effect.Services<ReturnType<typeof currentServer>>, Session.Session>

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
export const fromRequest = (
  request: RequestTokenStore.RequestLike,
  options: RequestTokenStore.RequestTokenStoreOptions
): Effect.Effect<Option.Option<ServerUser>, FromRequestError, FromRequestRequirements> =>
  // The span of `Effect.fn("ServerUsers.fromRequest")` without its call-site stack: `Effect.fn`
  // builds an `Error` on every call to capture it, and this is a backend's per-request call.
  Effect.withSpan(
    Effect.flatMap(RequestTokenStore.readRequestTokens(request, options), (tokens) =>
      Effect.flatMap(Session.makeForRequest(tokens), (session) => orNone(Endpoint.callInSession(getCurrentServerEndpoint, {}, session)))),
    "ServerUsers.fromRequest",
    { captureStackTrace: false }
  )
