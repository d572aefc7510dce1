/**
 * Project authentication, resolved from the request headers exactly in the order of
 * PROTOCOL.md §1.3 (steps 1–9; step 10, the endpoint's access check, is the router's).
 * Headers are read with either prefix, `x-stack-` or `x-hexclave-` (names are case-insensitive).
 *
 * @module
 */
import { Effect } from "effect"
import type { KnownErrorInstance } from "../core/KnownError.js"
import {
  AccessTokenExpired,
  AccessTypeWithoutProjectId,
  AdminAccessTokenExpired,
  AdminAccessTokenIsNotAdmin,
  AdminAuthenticationRequired,
  AnonymousAuthenticationNotAllowed,
  BranchDoesNotExist,
  CurrentProjectNotFound,
  InvalidAccessType,
  InvalidProjectForAccessToken,
  InvalidPublishableClientKey,
  InvalidSecretServerKey,
  InvalidSuperSecretAdminKey,
  ProjectKeyWithoutAccessType,
  PublishableClientKeyRequiredForProject,
  RestrictedUserNotAllowed,
  ServerAuthenticationRequired,
  UnparsableAccessToken,
  UnparsableAdminAccessToken
} from "../core/KnownErrors.js"
import type { AccessTokenClaims } from "./AccessTokens.js"
import { verifyAccessToken } from "./AccessTokens.js"
import { TextFailure } from "./Responses.js"
import type { EmulatorState, ProjectKeySet, ProjectRecord, UserRecord } from "./State.js"
import { isKeySetValid, isProjectOwner } from "./State.js"

/** The access types of the service, lowest first. */
export const accessTypes = ["client", "server", "admin"] as const

/** An access type (`x-stack-access-type`). */
export type AccessType = (typeof accessTypes)[number]

/** Resolved authentication of a request. */
export interface Auth {
  readonly type: AccessType
  readonly project: ProjectRecord
  readonly branchId: string
  /** The user of the access token; undefined without a token, or when the user was deleted. */
  readonly user: UserRecord | undefined
  /** The verified claims of the access token, when one was sent. */
  readonly accessToken: AccessTokenClaims | undefined
  /** How the credentials were given. */
  readonly via: "key" | "keyless-client" | "admin-access-token"
}

/** Reads a request header given without prefix (`"access-type"`): `x-stack-…` first, then `x-hexclave-…`. */
export type HeaderReader = (name: string) => string | undefined

/** A reader over `Headers` accepting both prefixes. */
export const headerReader = (headers: Headers): HeaderReader => (name) => headers.get(`x-stack-${name}`) ?? headers.get(`x-hexclave-${name}`) ?? undefined

const nonEmpty = (value: string | undefined): string | undefined => (value === undefined || value === "" ? undefined : value)

/** The message the service sends for ACCESS_TOKEN_EXPIRED (the SDK's template is shorter). */
export const accessTokenExpiredMessage = (details: {
  readonly expired_at_millis: number | null
  readonly project_id: string | null
  readonly user_id: string | null
  readonly refresh_token_id: string | null
}): string =>
  "Access token has expired. Please refresh it and try again." +
  (details.expired_at_millis !== null ? ` (The access token expired at ${new Date(details.expired_at_millis).toISOString()}.)` : "") +
  (details.project_id !== null ? ` Project ID: ${details.project_id}.` : "") +
  (details.user_id !== null ? ` User ID: ${details.user_id}.` : "") +
  (details.refresh_token_id !== null ? ` Refresh token ID: ${details.refresh_token_id}.` : "") +
  "\n\nDebug info: Most likely, you fetched the access token before it expired (for example, in a server component, pre-rendered page, or on page load), but then didn't refresh it before it expired. If this is the case, and you're using the SDK, make sure you call getAccessToken() every time you need to use the access token. If you're not using the SDK, make sure you refresh the access token with the refresh endpoint."

/** The 401 text of an admin access token whose user was deleted (backend `route-handlers/smart-request.tsx` at 2f719903). */
export const adminTokenUserGoneText = "The user associated with the admin access token is no longer valid. Please refresh the admin access token and try again."

/** Builds ACCESS_TOKEN_EXPIRED with the service's message. */
export const accessTokenExpired = (details: Parameters<typeof accessTokenExpiredMessage>[0]) =>
  new AccessTokenExpired({ message: accessTokenExpiredMessage(details), details })

const keyMatches = (
  project: ProjectRecord,
  field: keyof Pick<ProjectKeySet, "publishableClientKey" | "secretServerKey" | "superSecretAdminKey">,
  value: string,
  nowMillis: number
): boolean => project.keys.some((keys) => keys[field] === value && isKeySetValid(keys, nowMillis))

/**
 * Resolves the project authentication of a request: `null` when no access type was sent (and no
 * key), else the project, access type and user. Fails with the known error of the first check
 * that fails, in the order of PROTOCOL.md §1.3.
 */
export const resolveProjectAuth = (input: {
  readonly header: HeaderReader
  readonly state: EmulatorState
  readonly nowMillis: number
}): Effect.Effect<Auth | null, KnownErrorInstance | TextFailure> =>
  Effect.gen(function* () {
    const { header, state, nowMillis } = input
    const accessType = nonEmpty(header("access-type"))
    const publishableClientKey = nonEmpty(header("publishable-client-key"))
    const secretServerKey = nonEmpty(header("secret-server-key"))
    const superSecretAdminKey = nonEmpty(header("super-secret-admin-key"))
    const adminAccessToken = nonEmpty(header("admin-access-token"))
    const projectId = nonEmpty(header("project-id"))

    // 1–2
    if (accessType === undefined) {
      if (publishableClientKey ?? secretServerKey ?? superSecretAdminKey ?? adminAccessToken) {
        return yield* Effect.fail(ProjectKeyWithoutAccessType.make({}))
      }
      return null
    }
    // 3
    if (!(accessTypes as ReadonlyArray<string>).includes(accessType)) {
      return yield* Effect.fail(
        new InvalidAccessType({
          message: `The x-stack-access-type header must be 'client', 'server', or 'admin', but was '${accessType}'.`,
          details: {}
        })
      )
    }
    const type = accessType as AccessType
    // 4
    if (projectId === undefined) return yield* Effect.fail(AccessTypeWithoutProjectId.make({ request_type: type }))

    // 5
    let claims: AccessTokenClaims | undefined
    const accessToken = nonEmpty(header("access-token"))
    if (accessToken !== undefined) {
      const verified = yield* verifyAccessToken(accessToken, {
        projectOf: (id) => state.projects.get(id),
        nowMillis
      }).pipe(
        Effect.mapError((failure) =>
          failure._tag === "Unparsable"
            ? UnparsableAccessToken.make({})
            : accessTokenExpired({
              expired_at_millis: failure.expiredAtMillis,
              project_id: failure.projectId,
              user_id: failure.userId,
              refresh_token_id: failure.refreshTokenId
            })
        )
      )
      if (verified.project.id !== projectId) {
        return yield* Effect.fail(
          InvalidProjectForAccessToken.make({ expected_project_id: projectId, actual_project_id: verified.project.id })
        )
      }
      const allowAnonymous = header("allow-anonymous-user") === "true"
      const allowRestricted = header("allow-restricted-user") === "true"
      if (verified.claims.is_anonymous && !allowAnonymous) {
        return yield* Effect.fail(AnonymousAuthenticationNotAllowed.make({}))
      }
      if (verified.claims.is_restricted && !allowAnonymous && !allowRestricted) {
        return yield* Effect.fail(
          RestrictedUserNotAllowed.make({ restricted_reason: verified.claims.restricted_reason ?? { type: "restricted_by_administrator" } })
        )
      }
      claims = verified.claims
    }

    // 6
    const project = state.projects.get(projectId)
    if (project === undefined) return yield* Effect.fail(CurrentProjectNotFound.make({ project_id: projectId }))

    // 7
    let via: Auth["via"] = "key"
    if (adminAccessToken !== undefined) {
      const verified = yield* verifyAccessToken(adminAccessToken, {
        projectOf: (id) => state.projects.get(id),
        nowMillis
      }).pipe(
        Effect.mapError((failure) =>
          failure._tag === "Unparsable"
            ? UnparsableAdminAccessToken.make({})
            : AdminAccessTokenExpired.make({ expired_at_millis: failure.expiredAtMillis })
        )
      )
      if (verified.project.id !== "internal") return yield* Effect.fail(AdminAccessTokenIsNotAdmin.make({}))
      if (!verified.project.users.has(verified.claims.sub)) {
        return yield* Effect.fail(new TextFailure({ status: 401, text: adminTokenUserGoneText }))
      }
      if (!isProjectOwner(state, project, verified.claims.sub)) return yield* Effect.fail(AdminAccessTokenIsNotAdmin.make({}))
      via = "admin-access-token"
    } else if (type === "client") {
      if (publishableClientKey === undefined) {
        if (project.requiresPublishableClientKey) {
          return yield* Effect.fail(PublishableClientKeyRequiredForProject.make({ project_id: project.id }))
        }
        via = "keyless-client"
      } else if (!keyMatches(project, "publishableClientKey", publishableClientKey, nowMillis)) {
        return yield* Effect.fail(InvalidPublishableClientKey.make({ project_id: project.id }))
      }
    } else if (type === "server") {
      if (secretServerKey === undefined) return yield* Effect.fail(ServerAuthenticationRequired.make({}))
      if (!keyMatches(project, "secretServerKey", secretServerKey, nowMillis)) {
        return yield* Effect.fail(InvalidSecretServerKey.make({ project_id: project.id }))
      }
    } else {
      if (superSecretAdminKey === undefined) return yield* Effect.fail(AdminAuthenticationRequired.make({}))
      if (!keyMatches(project, "superSecretAdminKey", superSecretAdminKey, nowMillis)) {
        return yield* Effect.fail(InvalidSuperSecretAdminKey.make({ project_id: project.id }))
      }
    }

    // 8
    const branchId = nonEmpty(header("branch-id")) ?? "main"
    if (branchId !== "main") return yield* Effect.fail(BranchDoesNotExist.make({ branch_id: branchId }))

    // 9
    const user = claims === undefined ? undefined : project.users.get(claims.sub)
    return { type, project, branchId, user, accessToken: claims, via }
  })
