/**
 * Schema-typed metadata (issue 15, "beyond both"): the app gives the schemas of the client,
 * client-read-only and server metadata of users and teams once, with {@link make}, and reads and
 * writes users and teams through the returned {@link TypedMetadata}: the same functions as
 * `Users`, `ServerUsers`, `Teams`, `ServerTeams` and `GetUser.getUser`, whose users and teams
 * carry the decoded types and whose updates are encoded by the same schemas.
 *
 * - A value the service answers that does not match its schema fails with
 *   {@link MetadataDecodeError} (owner, id, field): the call fails, nothing crashes.
 * - An update whose metadata does not encode fails with `InvalidArgument` (`argument` = the
 *   field) before any request.
 * - Metadata that was never set is `null` on the wire: a schema that does not accept `null`
 *   rejects such a user; {@link withDefault} reads `null` as a default value.
 * - A kind without a schema keeps today's `unknown` value, untouched. The plain modules
 *   (`Users`…) are unchanged.
 *
 * @example
 * ```ts
 * import { Effect, Option, Schema } from "effect"
 * import { Metadata } from "stack-auth-effect"
 *
 * const AppMetadata = Metadata.make({
 *   user: {
 *     client: Metadata.withDefault(Schema.Struct({ theme: Schema.Literals(["dark", "light"]) }), () => ({ theme: "light" as const }))
 *   }
 * })
 *
 * const theme = AppMetadata.Users.getCurrent().pipe(
 *   Effect.map(Option.map((user) => user.clientMetadata.theme)) // "dark" | "light"
 * )
 * ```
 *
 * @module
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import * as Stream from "effect/Stream"
import * as GetUser from "../auth/GetUser.js"
import { InvalidArgument } from "../core/Errors.js"
import type * as RequestTokenStore from "../session/RequestTokenStore.js"
import * as ServerTeams from "../teams/ServerTeams.js"
import * as Teams from "../teams/Teams.js"
import * as ServerUsers from "./ServerUsers.js"
import type * as User from "./User.js"
import * as Users from "./Users.js"
import { describeIssues } from "./internal/issues.js"

// ---------------------------------------------------------------------------------------------
// Schemas and types
// ---------------------------------------------------------------------------------------------

/** A metadata schema: any schema without requirements (the encoded side is what the service stores). */
type MetadataSchema = Schema.Codec<unknown, unknown>

/** The schemas of one owner's three kinds of metadata; a kind left out stays `unknown`. */
export interface OwnerSchemas {
  /** `clientMetadata`: read and written by the user (client access). */
  readonly client?: MetadataSchema
  /** `clientReadOnlyMetadata`: read by the user, written with server access. */
  readonly clientReadOnly?: MetadataSchema
  /** `serverMetadata`: server access only. */
  readonly server?: MetadataSchema
}

/** The schemas of users' and teams' metadata, given once to {@link make}. */
export interface Schemas {
  /** The metadata of users. */
  readonly user?: OwnerSchemas
  /** The metadata of teams (also the `selectedTeam` embedded in a user). */
  readonly team?: OwnerSchemas
}

/** The field names of the three kinds of metadata. */
type MetadataField = "clientMetadata" | "clientReadOnlyMetadata" | "serverMetadata"

type KindOf<F extends MetadataField> = F extends "clientMetadata" ? "client" : F extends "clientReadOnlyMetadata" ? "clientReadOnly" : "server"

/** The decoded type of field `F` under the owner's schemas `O` (`unknown` without a schema). */
type FieldType<O, F extends MetadataField> = [O] extends [{ readonly [K in KindOf<F>]: infer S }] ? S extends MetadataSchema ? S["Type"] : unknown
  : unknown

type OwnerOf<S, K extends "user" | "team"> = [S] extends [{ readonly [P in K]: infer O }] ? O : undefined

/** A team (client or server view) whose metadata fields carry the decoded types of `S["team"]`. */
export type TypedTeam<T, S extends Schemas> = {
  [K in keyof T]: K extends MetadataField ? FieldType<OwnerOf<S, "team">, K> : T[K]
}

/**
 * A user (client or server view) whose metadata fields carry the decoded types of `S["user"]`
 * and whose `selectedTeam` is a {@link TypedTeam}.
 */
export type TypedUser<T, S extends Schemas> = {
  [K in keyof T]: K extends MetadataField ? FieldType<OwnerOf<S, "user">, K>
    : K extends "selectedTeam" ? (null extends T[K] ? null : never) | TypedTeam<Exclude<T[K], null>, S>
    : T[K]
}

/** An update (or create input) whose metadata fields take the decoded types of the owner's schemas `O`. */
export type TypedUpdate<T, O> = {
  [K in keyof T]: K extends MetadataField ? FieldType<O, K> : T[K]
}

type Owner = "user" | "team"

/**
 * A metadata value the service answered does not match its schema. `owner` and `id` name the
 * user or team, `field` the metadata field; `message` says where in the value and how it fails
 * (paths and issue kinds, never the stored value: metadata may hold personal data).
 */
export class MetadataDecodeError extends Data.TaggedError("MetadataDecodeError")<{
  readonly owner: Owner
  readonly id: string
  readonly field: MetadataField
  readonly message: string
}> {}

const kinds: ReadonlyArray<readonly [MetadataField, keyof OwnerSchemas]> = [
  ["clientMetadata", "client"],
  ["clientReadOnlyMetadata", "clientReadOnly"],
  ["serverMetadata", "server"]
]

/**
 * `schema` with `null` (metadata never set) read as `value()`; writes encode with `schema`.
 * The type stays the schema's, so `user.clientMetadata.theme` needs no null check.
 */
export const withDefault = <A, I>(schema: Schema.Codec<A, I>, value: () => NoInfer<A>): Schema.Codec<A, I | null> =>
  Schema.NullOr(schema).pipe(
    Schema.decodeTo(
      Schema.toType(schema),
      SchemaTransformation.transform({
        decode: (decoded: A | null): A => (decoded === null ? value() : decoded),
        encode: (typed: A): A | null => typed
      })
    )
  )

// ---------------------------------------------------------------------------------------------
// Decoding and encoding
// ---------------------------------------------------------------------------------------------

type Owned = { readonly id: string }

const decodeOwner = (owner: Owner, schemas: OwnerSchemas | undefined, record: Owned) =>
  Effect.gen(function* () {
    if (schemas === undefined) return record
    const fields: { [key: string]: unknown } = {}
    for (const [field, kind] of kinds) {
      const schema = schemas[kind]
      if (schema === undefined || !(field in record)) continue
      const value: unknown = (record as { readonly [key: string]: unknown })[field]
      fields[field] = yield* Schema.decodeUnknownEffect(schema)(value).pipe(
        Effect.mapError((error) =>
          new MetadataDecodeError({
            owner,
            id: record.id,
            field,
            message: `${field} of ${owner} ${record.id} does not match its schema: ${describeIssues(error, "(value)")}`
          })
        )
      )
    }
    return { ...record, ...fields }
  })

const encodeOwner = <T extends object>(schemas: OwnerSchemas | undefined, update: T) =>
  Effect.gen(function* () {
    if (schemas === undefined) return update
    const fields: { [key: string]: unknown } = {}
    for (const [field, kind] of kinds) {
      const schema = schemas[kind]
      const value: unknown = (update as { readonly [key: string]: unknown })[field]
      if (schema === undefined || value === undefined) continue
      fields[field] = yield* Schema.encodeUnknownEffect(schema)(value).pipe(
        Effect.mapError((error) => new InvalidArgument({ argument: field, message: `${field} does not encode: ${describeIssues(error, "(value)")}` }))
      )
    }
    return { ...update, ...fields }
  })

// ---------------------------------------------------------------------------------------------
// The typed functions
// ---------------------------------------------------------------------------------------------

type UserUpdate<S extends Schemas> = TypedUpdate<Users.CurrentUserUpdate, OwnerOf<S, "user">>
type ServerUserUpdate<S extends Schemas> = TypedUpdate<ServerUsers.ServerUserUpdate, OwnerOf<S, "user">>
type ServerUserCreate<S extends Schemas> = TypedUpdate<ServerUsers.ServerUserCreate, OwnerOf<S, "user">>
type TeamCreate<S extends Schemas> = TypedUpdate<Teams.ClientTeamCreateInput, OwnerOf<S, "team">>
type TeamUpdate<S extends Schemas> = TypedUpdate<Teams.ClientTeamUpdate, OwnerOf<S, "team">>
type ServerTeamCreate<S extends Schemas> = TypedUpdate<ServerTeams.ServerTeamCreate, OwnerOf<S, "team">>
type ServerTeamUpdate<S extends Schemas> = TypedUpdate<ServerTeams.ServerTeamUpdate, OwnerOf<S, "team">>

/** The success of `getUser` for a policy, with typed metadata. */
type GetUserSuccess<O extends GetUser.Or, U> = GetUser.GetUserSuccess<O, U>

/**
 * Makes the typed functions for `schemas` (see the module). Give the schemas once, as a
 * constant of the app, and call users and teams through it.
 */
export const make = <const S extends Schemas>(schemas: S) => {
  type CurrentUser = TypedUser<User.CurrentUser, S>
  type ServerUser = TypedUser<User.ServerUser, S>

  const decodeTeam = <T extends Owned>(team: T) => decodeOwner("team", schemas.team, team) as Effect.Effect<TypedTeam<T, S>, MetadataDecodeError>

  const decodeUser = <T extends Owned & { readonly selectedTeam: Owned | null }>(user: T) =>
    Effect.gen(function* () {
      const decoded = yield* decodeOwner("user", schemas.user, user)
      const selectedTeam = user.selectedTeam === null ? null : yield* decodeTeam(user.selectedTeam)
      return { ...decoded, selectedTeam }
    }) as Effect.Effect<TypedUser<T, S>, MetadataDecodeError>

  const decodeOption = <A, B, E, R>(decode: (a: A) => Effect.Effect<B, E, R>) => (option: Option.Option<A>) =>
    Option.match(option, { onNone: () => Effect.succeed(Option.none<B>()), onSome: (a) => Effect.map(decode(a), Option.some) })

  const decodeAll = <A, B, E, R>(decode: (a: A) => Effect.Effect<B, E, R>) => (items: ReadonlyArray<A>) => Effect.forEach(items, decode)

  const encodeUser = <T extends object>(update: T) => encodeOwner(schemas.user, update)
  const encodeTeam = <T extends object>(update: T) => encodeOwner(schemas.team, update)

  return {
    /** The schemas given to {@link make}. */
    schemas,
    /** Decodes a user read elsewhere (e.g. a hook's value) with the user and team schemas. */
    decodeUser,
    /** Decodes a team read elsewhere with the team schemas. */
    decodeTeam,
    /** `Users` with typed metadata. */
    Users: {
      /** `Users.getCurrent`, decoded. */
      getCurrent: () => Effect.flatMap(Users.getCurrent(), decodeOption((user) => decodeUser(user))),
      /** `Users.updateCurrent`, the update encoded first (`InvalidArgument` before any request). */
      updateCurrent: (update: UserUpdate<S>) =>
        encodeUser(update).pipe(
          Effect.flatMap((payload) => Users.updateCurrent(payload as Users.CurrentUserUpdate)),
          Effect.flatMap((user) => decodeUser(user))
        )
    },
    /** `ServerUsers` with typed metadata. */
    ServerUsers: {
      /** `ServerUsers.getById`, decoded. */
      getById: (userId: string) => Effect.flatMap(ServerUsers.getById(userId), (user) => decodeUser(user)),
      /** `ServerUsers.list`, every user of the page decoded. */
      list: (options?: ServerUsers.ListOptions) =>
        Effect.flatMap(ServerUsers.list(options), (page) =>
          Effect.map(decodeAll((user: User.ServerUser) => decodeUser(user))(page.items), (items) => ({
            items,
            nextCursor: page.nextCursor
          }))),
      /** `ServerUsers.stream`, every user decoded as it is pulled. */
      stream: (options?: ServerUsers.ListOptions) => Stream.mapEffect(ServerUsers.stream(options), (user) => decodeUser(user)),
      /** `ServerUsers.getCurrent`, decoded. */
      getCurrent: () => Effect.flatMap(ServerUsers.getCurrent(), decodeOption((user) => decodeUser(user))),
      /** `ServerUsers.getUser` with the same policies, the user decoded. */
      getUser: <const O extends GetUser.Or = "return-null">(
        options?: GetUser.GetUserOptions<O>
      ): Effect.Effect<
        GetUserSuccess<O, ServerUser>,
        GetUser.GetUserError<O, ServerUsers.GetCurrentError> | MetadataDecodeError,
        ServerUsers.GetUserRequirements
      > =>
        Effect.flatMap(
          ServerUsers.getUser(options) as Effect.Effect<
            Option.Option<User.ServerUser> | User.ServerUser,
            GetUser.GetUserError<O, ServerUsers.GetCurrentError>,
            ServerUsers.GetUserRequirements
          >,
          (result): Effect.Effect<Option.Option<ServerUser> | ServerUser, MetadataDecodeError> =>
            Option.isOption(result) ? decodeOption((user: User.ServerUser) => decodeUser(user))(result) : decodeUser(result)
        ) as Effect.Effect<
          GetUserSuccess<O, ServerUser>,
          GetUser.GetUserError<O, ServerUsers.GetCurrentError> | MetadataDecodeError,
          ServerUsers.GetUserRequirements
        >,
      /** `ServerUsers.getByApiKey`, decoded. */
      getByApiKey: (apiKey: string | Redacted.Redacted<string>) => Effect.flatMap(ServerUsers.getByApiKey(apiKey), decodeOption((user) => decodeUser(user))),
      /** `ServerUsers.fromRequest`, decoded. */
      fromRequest: (request: RequestTokenStore.RequestLike, options: RequestTokenStore.RequestTokenStoreOptions) =>
        Effect.flatMap(ServerUsers.fromRequest(request, options), decodeOption((user) => decodeUser(user))),
      /** `ServerUsers.create`, the input encoded first. */
      create: (user: ServerUserCreate<S>) =>
        encodeUser(user).pipe(
          Effect.flatMap((payload) => ServerUsers.create(payload as ServerUsers.ServerUserCreate)),
          Effect.flatMap((created) => decodeUser(created))
        ),
      /** `ServerUsers.update`, the update encoded first. */
      update: (userId: string, update: ServerUserUpdate<S>) =>
        encodeUser(update).pipe(
          Effect.flatMap((payload) => ServerUsers.update(userId, payload as ServerUsers.ServerUserUpdate)),
          Effect.flatMap((user) => decodeUser(user))
        ),
      /** `ServerUsers.updateCurrent`, the update encoded first. */
      updateCurrent: (update: ServerUserUpdate<S>) =>
        encodeUser(update).pipe(
          Effect.flatMap((payload) => ServerUsers.updateCurrent(payload as ServerUsers.ServerUserUpdate)),
          Effect.flatMap((user) => decodeUser(user))
        )
    },
    /** `Teams` with typed metadata. */
    Teams: {
      /** `Teams.listMine`, decoded. */
      listMine: () => Effect.flatMap(Teams.listMine(), decodeAll((team: User.ClientTeam) => decodeTeam(team))),
      /** `Teams.get`, decoded. */
      get: (teamId: string) => Effect.flatMap(Teams.get(teamId), (team) => decodeTeam(team)),
      /** `Teams.create`, the input encoded first. */
      create: (input: TeamCreate<S>) =>
        encodeTeam(input).pipe(
          Effect.flatMap((payload) => Teams.create(payload as Teams.ClientTeamCreateInput)),
          Effect.flatMap((team) => decodeTeam(team))
        ),
      /** `Teams.update`, the update encoded first. */
      update: (teamId: string, changes: TeamUpdate<S>) =>
        encodeTeam(changes).pipe(
          Effect.flatMap((payload) => Teams.update(teamId, payload as Teams.ClientTeamUpdate)),
          Effect.flatMap((team) => decodeTeam(team))
        )
    },
    /** `ServerTeams` with typed metadata. */
    ServerTeams: {
      /** `ServerTeams.list`, decoded. */
      list: (options?: { readonly userId?: string }) => Effect.flatMap(ServerTeams.list(options), decodeAll((team: User.ServerTeam) => decodeTeam(team))),
      /** `ServerTeams.get`, decoded. */
      get: (teamId: string) => Effect.flatMap(ServerTeams.get(teamId), (team) => decodeTeam(team)),
      /** `ServerTeams.getByApiKey`, decoded. */
      getByApiKey: (apiKey: string | Redacted.Redacted<string>) => Effect.flatMap(ServerTeams.getByApiKey(apiKey), decodeOption((team) => decodeTeam(team))),
      /** `ServerTeams.create`, the input encoded first. */
      create: (input: ServerTeamCreate<S>) =>
        encodeTeam(input).pipe(
          Effect.flatMap((payload) => ServerTeams.create(payload as ServerTeams.ServerTeamCreate)),
          Effect.flatMap((team) => decodeTeam(team))
        ),
      /** `ServerTeams.update`, the update encoded first. */
      update: (teamId: string, changes: ServerTeamUpdate<S>) =>
        encodeTeam(changes).pipe(
          Effect.flatMap((payload) => ServerTeams.update(teamId, payload as ServerTeams.ServerTeamUpdate)),
          Effect.flatMap((team) => decodeTeam(team))
        )
    },
    /** `GetUser.getUser` with the same policies, the user decoded. */
    getUser: <const O extends GetUser.Or = "return-null">(
      options?: GetUser.GetUserOptions<O>
    ): Effect.Effect<GetUserSuccess<O, CurrentUser>, GetUser.GetUserError<O> | MetadataDecodeError, GetUser.GetUserRequirements> =>
      Effect.flatMap(
        GetUser.getUser(options) as Effect.Effect<Option.Option<User.CurrentUser> | User.CurrentUser, GetUser.GetUserError<O>, GetUser.GetUserRequirements>,
        (result): Effect.Effect<Option.Option<CurrentUser> | CurrentUser, MetadataDecodeError> =>
          Option.isOption(result) ? decodeOption((user: User.CurrentUser) => decodeUser(user))(result) : decodeUser(result)
      ) as Effect.Effect<GetUserSuccess<O, CurrentUser>, GetUser.GetUserError<O> | MetadataDecodeError, GetUser.GetUserRequirements>
  }
}

/** The typed functions {@link make} returns for the schemas `S`. */
export type TypedMetadata<S extends Schemas> = ReturnType<typeof make<S>>
