/**
 * The catalogue of the service's known errors (PROTOCOL.md §4): one tagged class per code,
 * its HTTP status, its message template and its typed `details`, plus the registry from code
 * to class and the error families (the wire carries only the concrete code).
 *
 * Class names and `_tag`s are the PascalCase of the code; `details` keep the wire's key names.
 * Each section ends with the one list of its classes. Abstract parents (`VERIFICATION_ERROR`,
 * `API_KEY_NOT_VALID`, …) never appear on the wire: each is a list of classes (`…Classes`) from
 * which its union type, its code set (`…Codes`) and its guard (`is…`, a refinement) derive.
 * `UNSUPPORTED_ERROR` is not here: an unknown code becomes `UnsupportedKnownError`, a catalogued
 * code the call does not declare an `UnexpectedKnownError` carrying its class (`Errors.ts`).
 *
 * @module
 */
import { NodeInspectSymbol } from "effect/Inspectable"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as SchemaTransformation from "effect/SchemaTransformation"
import { KnownError, NoDetails, tagOfCode } from "./KnownError.js"
import type { FamilyGuard, KnownErrorClass, TagOfCode } from "./KnownError.js"

// ---------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------

/** The `{brand}` placeholder of the service's messages. */
const brand = "Stack Auth"

/** The pointer the service appends to some project-authentication messages. */
const restApiAuthenticationDocs =
  "\n\nFor more information, see the docs on REST API authentication: https://docs.stack-auth.com/rest-api/overview#authentication"

/** The suffix of the "already exists but the e-mail is not verified" variants. */
const notVerifiedSuffix =
  " but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method."

/** `restricted_reason` of a restricted user (`{ type }`, e.g. `"anonymous"`, `"email_not_verified"`). */
const RestrictedReason = Schema.Struct({ type: Schema.String })

/** `would_work_if_email_was_verified`: older services omit it, which means `false`. */
const WouldWorkIfEmailWasVerified = Schema.Boolean.pipe(Schema.withDecodingDefaultType(Effect.succeed(false)))

/** Free-form details that may be absent: `undefined`/`null` decode to `{}`. */
const FreeFormDetails = Schema.UndefinedOr(Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))).pipe(
  Schema.decodeTo(
    Schema.Record(Schema.String, Schema.Unknown),
    SchemaTransformation.transform<{ readonly [x: string]: unknown }, { readonly [x: string]: unknown } | null | undefined>({
      decode: (details) => details ?? {},
      encode: (details) => details
    })
  )
)

/**
 * The class of one catalogued code: `KnownError` with the tag derived from the code
 * (`USER_NOT_FOUND` → `UserNotFound`, the rule every class of the catalogue follows), so each
 * class names its code once (the tags are not shipped as a second copy of the codes).
 */
const known = <const Code extends string, Details>(
  code: Code,
  status: number,
  detailsSchema: Schema.Codec<Details, unknown>,
  message: (details: Details) => string
) => KnownError(tagOfCode(code) as TagOfCode<Code>, code, status, detailsSchema, message)

// ---------------------------------------------------------------------------------------------
// Lists and families
// ---------------------------------------------------------------------------------------------

// Each section ends with the list of its classes (`as const`); a family (an abstract parent, never
// on the wire) is such a list, and its union type, code set and guard derive from it. Lists are
// joined with a pure call (no spread at module level), so unused lists, families and their classes
// stay tree-shakeable; the registry at the bottom joins the sections.

/** Joins class lists into one. */
const classesOf = <const Lists extends ReadonlyArray<ReadonlyArray<KnownErrorClass>>>(
  ...lists: Lists
): ReadonlyArray<Lists[number][number]> => {
  const joined: Array<Lists[number][number]> = []
  for (const list of lists) joined.push(...list)
  return joined
}

/** The wire codes of a family's classes. */
const codesOf = (classes: ReadonlyArray<KnownErrorClass>): ReadonlySet<string> => new Set(classes.map((cls) => cls.code))

/** The guard of a family: an instance of one of its classes (by `_tag`). */
const guardOf = <const Classes extends ReadonlyArray<KnownErrorClass>>(
  classes: Classes
): FamilyGuard<InstanceType<Classes[number]>> => {
  const tags: ReadonlySet<string> = new Set(classes.map((cls) => cls.tag))
  return <E>(error: E): error is E & InstanceType<Classes[number]> =>
    typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" && tags.has(error._tag)
}

// ---------------------------------------------------------------------------------------------
// Request and schema
// ---------------------------------------------------------------------------------------------

/** 400 — the body could not be parsed (bad JSON, unknown content type). */
export class BodyParsingError extends known("BODY_PARSING_ERROR", 400, NoDetails, () => "Invalid JSON in request body") {}

/** 400 — the request failed the endpoint's schema (unknown keys, wrong types). */
export class SchemaError extends known("SCHEMA_ERROR", 400, Schema.Struct({ message: Schema.String }), (d) => d.message) {}

/** 400 — every overload of the endpoint rejected the request. */
export class AllOverloadsFailed extends known("ALL_OVERLOADS_FAILED", 400, Schema.Struct({ overload_errors: Schema.Array(Schema.Unknown) }), (d) =>
  [
    "This endpoint has multiple overloads, but they all failed to process the request.",
    ...d.overload_errors.map((e, i) => `Overload ${i + 1}: ${JSON.stringify(e, undefined, 2)}`)
  ].join("\n\n"))
{}

/** The request-and-schema section. */
const requestClasses = [BodyParsingError, SchemaError, AllOverloadsFailed] as const

// ---------------------------------------------------------------------------------------------
// Project authentication (family PROJECT_AUTHENTICATION_ERROR)
// ---------------------------------------------------------------------------------------------

/** 400 — a key or admin token was sent without `x-stack-access-type`. */
export class ProjectKeyWithoutAccessType extends known(
  "PROJECT_KEY_WITHOUT_ACCESS_TYPE",
  400,
  NoDetails,
  () =>
    "Either an API key or an admin access token was provided, but the x-stack-access-type header is missing. Set it to 'client', 'server', or 'admin' as appropriate."
) {}

/** 400 — `x-stack-access-type` is not `client`, `server` or `admin` (the value is not in details). */
export class InvalidAccessType
  extends known("INVALID_ACCESS_TYPE", 400, NoDetails, () => "The x-stack-access-type header must be 'client', 'server', or 'admin'.")
{}

/** 400 — `x-stack-access-type` was sent without `x-stack-project-id`. */
export class AccessTypeWithoutProjectId extends known(
  "ACCESS_TYPE_WITHOUT_PROJECT_ID",
  400,
  Schema.Struct({ request_type: Schema.String }),
  (d) => `The x-stack-access-type header was '${d.request_type}', but the x-stack-project-id header was not provided.${restApiAuthenticationDocs}`
) {}

/** 400 — no access type (and usually no keys) was sent. */
export class AccessTypeRequired extends known(
  "ACCESS_TYPE_REQUIRED",
  400,
  NoDetails,
  () =>
    `You must specify an access level for this Stack project. Make sure project API keys are provided (eg. x-stack-publishable-client-key) and you set the x-stack-access-type header to 'client', 'server', or 'admin'.${restApiAuthenticationDocs}`
) {}

/** 401 — the endpoint needs a higher access type than the one sent. */
export class InsufficientAccessType extends known(
  "INSUFFICIENT_ACCESS_TYPE",
  401,
  Schema.Struct({ actual_access_type: Schema.String, allowed_access_types: Schema.Array(Schema.String) }),
  (d) => `The x-stack-access-type header must be ${d.allowed_access_types.map((t) => `'${t}'`).join(" or ")}, but was '${d.actual_access_type}'.`
) {}

/** 401 — the publishable client key is wrong for the project. */
export class InvalidPublishableClientKey extends known(
  "INVALID_PUBLISHABLE_CLIENT_KEY",
  401,
  Schema.Struct({ project_id: Schema.String }),
  (d) => `The publishable key is not valid for the project "${d.project_id}". Does the project and/or the key exist?`
) {}

/** 401 — the secret server key is wrong for the project. */
export class InvalidSecretServerKey extends known(
  "INVALID_SECRET_SERVER_KEY",
  401,
  Schema.Struct({ project_id: Schema.String }),
  (d) => `The secret server key is not valid for the project "${d.project_id}". Does the project and/or the key exist?`
) {}

/** 401 — the super secret admin key is wrong for the project. */
export class InvalidSuperSecretAdminKey extends known(
  "INVALID_SUPER_SECRET_ADMIN_KEY",
  401,
  Schema.Struct({ project_id: Schema.String }),
  (d) => `The super secret admin key is not valid for the project "${d.project_id}". Does the project and/or the key exist?`
) {}

/** 401 — the admin access token could not be parsed or verified. */
export class UnparsableAdminAccessToken extends known("UNPARSABLE_ADMIN_ACCESS_TOKEN", 401, NoDetails, () => "Admin access token is not parsable.") {}

/** 401 — the admin access token has expired. */
export class AdminAccessTokenExpired extends known(
  "ADMIN_ACCESS_TOKEN_EXPIRED",
  401,
  Schema.Struct({ expired_at_millis: Schema.optional(Schema.NullOr(Schema.Number)) }),
  (d) =>
    `Admin access token has expired. Please refresh it and try again.${
      d.expired_at_millis != null ? ` (The access token expired at ${new Date(d.expired_at_millis).toISOString()}.)` : ""
    }`
) {}

/** 401 — admin access tokens must come from the internal project (not raised today). */
export class InvalidProjectForAdminAccessToken
  extends known("INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN", 401, NoDetails, () => "Admin access tokens must be created on the internal project.")
{}

/** 401 — the admin access token's user does not own this project. */
export class AdminAccessTokenIsNotAdmin
  extends known("ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN", 401, NoDetails, () => "Admin access token does not have the required permissions to access this project.")
{}

/** 401 — the publishable client key is missing (deprecated, not raised today). */
export class ClientAuthenticationRequired
  extends known("CLIENT_AUTHENTICATION_REQUIRED", 401, NoDetails, () => "The publishable client key must be provided.")
{}

/** 401 — neither a publishable client key nor a secret server key was sent (deprecated, not raised today). */
export class ClientOrServerAuthenticationRequired extends known(
  "CLIENT_OR_SERVER_AUTHENTICATION_REQUIRED",
  401,
  NoDetails,
  () => "Either the publishable client key or the secret server key must be provided."
) {}

/** 401 — neither a publishable client key nor a super secret admin key was sent (deprecated, not raised today). */
export class ClientOrAdminAuthenticationRequired extends known(
  "CLIENT_OR_ADMIN_AUTHENTICATION_REQUIRED",
  401,
  NoDetails,
  () => "Either the publishable client key or the super secret admin key must be provided."
) {}

/** 401 — no project key at all was sent (deprecated, not raised today). */
export class ClientOrServerOrAdminAuthenticationRequired extends known(
  "CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED",
  401,
  NoDetails,
  () => "Either the publishable client key, the secret server key, or the super secret admin key must be provided."
) {}

/** 401 — the project requires a publishable client key and none was sent. */
export class PublishableClientKeyRequiredForProject extends known(
  "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
  401,
  Schema.Struct({ project_id: Schema.optional(Schema.NullOr(Schema.String)) }),
  () => "Publishable client keys are required for this project. Create one in Project Keys, or disable this requirement there to allow keyless client access."
) {}

/** 401 — the secret server key is missing. */
export class ServerAuthenticationRequired extends known("SERVER_AUTHENTICATION_REQUIRED", 401, NoDetails, () => "The secret server key must be provided.") {}

/** 401 — the super secret admin key is missing. */
export class AdminAuthenticationRequired extends known("ADMIN_AUTHENTICATION_REQUIRED", 401, NoDetails, () => "The super secret admin key must be provided.") {}

/** 401 — the endpoint only works on the internal project. */
export class ExpectedInternalProject extends known("EXPECTED_INTERNAL_PROJECT", 401, NoDetails, () => "The project ID is expected to be internal.") {}

/** Classes of the `INVALID_ADMIN_ACCESS_TOKEN` family. */
export const invalidAdminAccessTokenClasses = [
  UnparsableAdminAccessToken,
  AdminAccessTokenExpired,
  InvalidProjectForAdminAccessToken,
  AdminAccessTokenIsNotAdmin
] as const

/** `INVALID_ADMIN_ACCESS_TOKEN`: the admin access token is unusable. */
export type InvalidAdminAccessToken = InstanceType<(typeof invalidAdminAccessTokenClasses)[number]>

/** Codes of the `INVALID_ADMIN_ACCESS_TOKEN` family. */
export const invalidAdminAccessTokenCodes: ReadonlySet<string> = codesOf(invalidAdminAccessTokenClasses)

/** Whether `u` is an instance of a class of the `INVALID_ADMIN_ACCESS_TOKEN` family. */
export const isInvalidAdminAccessToken: FamilyGuard<InvalidAdminAccessToken> = guardOf(invalidAdminAccessTokenClasses)

/** Classes of the `INVALID_PROJECT_AUTHENTICATION` family. */
export const invalidProjectAuthenticationClasses = classesOf(
  [
    ProjectKeyWithoutAccessType,
    InvalidAccessType,
    AccessTypeWithoutProjectId,
    AccessTypeRequired,
    InsufficientAccessType,
    InvalidPublishableClientKey,
    InvalidSecretServerKey,
    InvalidSuperSecretAdminKey
  ],
  invalidAdminAccessTokenClasses
)

/** `INVALID_PROJECT_AUTHENTICATION`: the project credentials or access type sent are wrong (includes `INVALID_ADMIN_ACCESS_TOKEN`). */
export type InvalidProjectAuthentication = InstanceType<(typeof invalidProjectAuthenticationClasses)[number]>

/** Codes of the `INVALID_PROJECT_AUTHENTICATION` family. */
export const invalidProjectAuthenticationCodes: ReadonlySet<string> = codesOf(invalidProjectAuthenticationClasses)

/** Whether `u` is an instance of a class of the `INVALID_PROJECT_AUTHENTICATION` family. */
export const isInvalidProjectAuthentication: FamilyGuard<InvalidProjectAuthentication> = guardOf(invalidProjectAuthenticationClasses)

/** Classes of the `PROJECT_AUTHENTICATION_REQUIRED` family. */
export const projectAuthenticationRequiredClasses = [
  ClientAuthenticationRequired,
  ClientOrServerAuthenticationRequired,
  ClientOrAdminAuthenticationRequired,
  ClientOrServerOrAdminAuthenticationRequired,
  PublishableClientKeyRequiredForProject,
  ServerAuthenticationRequired,
  AdminAuthenticationRequired
] as const

/** `PROJECT_AUTHENTICATION_REQUIRED`: a project credential is missing. */
export type ProjectAuthenticationRequired = InstanceType<(typeof projectAuthenticationRequiredClasses)[number]>

/** Codes of the `PROJECT_AUTHENTICATION_REQUIRED` family. */
export const projectAuthenticationRequiredCodes: ReadonlySet<string> = codesOf(projectAuthenticationRequiredClasses)

/** Whether `u` is an instance of a class of the `PROJECT_AUTHENTICATION_REQUIRED` family. */
export const isProjectAuthenticationRequired: FamilyGuard<ProjectAuthenticationRequired> = guardOf(projectAuthenticationRequiredClasses)

/** Classes of the `PROJECT_AUTHENTICATION_ERROR` family. */
export const projectAuthenticationErrorClasses = classesOf(
  invalidProjectAuthenticationClasses,
  projectAuthenticationRequiredClasses,
  [ExpectedInternalProject]
)

/** `PROJECT_AUTHENTICATION_ERROR`: any project-authentication failure (this whole section). */
export type ProjectAuthenticationError = InstanceType<(typeof projectAuthenticationErrorClasses)[number]>

/** Codes of the `PROJECT_AUTHENTICATION_ERROR` family. */
export const projectAuthenticationErrorCodes: ReadonlySet<string> = codesOf(projectAuthenticationErrorClasses)

/** Whether `u` is an instance of a class of the `PROJECT_AUTHENTICATION_ERROR` family. */
export const isProjectAuthenticationError: FamilyGuard<ProjectAuthenticationError> = guardOf(projectAuthenticationErrorClasses)

// ---------------------------------------------------------------------------------------------
// Session (families INVALID_ACCESS_TOKEN and REFRESH_TOKEN_ERROR)
// ---------------------------------------------------------------------------------------------

/** 401 — the access token could not be parsed or verified. */
export class UnparsableAccessToken extends known("UNPARSABLE_ACCESS_TOKEN", 401, NoDetails, () => "Access token is not parsable.") {}

/** 401 — the access token has expired. */
export class AccessTokenExpired extends known(
  "ACCESS_TOKEN_EXPIRED",
  401,
  Schema.Struct({
    expired_at_millis: Schema.optional(Schema.NullOr(Schema.Number)),
    project_id: Schema.optional(Schema.NullOr(Schema.String)),
    user_id: Schema.optional(Schema.NullOr(Schema.String)),
    refresh_token_id: Schema.optional(Schema.NullOr(Schema.String))
  }),
  () => "Access token has expired. Please refresh it and try again."
) {}

/** 401 — the access token belongs to another project. */
export class InvalidProjectForAccessToken extends known(
  "INVALID_PROJECT_FOR_ACCESS_TOKEN",
  401,
  Schema.Struct({ expected_project_id: Schema.String, actual_project_id: Schema.String }),
  (d) => `Access token not valid for this project. Expected project ID "${d.expected_project_id}", but the token is for project ID "${d.actual_project_id}".`
) {}

/** 401 — the refresh token is unknown, expired or revoked. */
export class RefreshTokenNotFoundOrExpired extends known(
  "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
  401,
  NoDetails,
  () => "Refresh token not found for this project, or the session has expired/been revoked."
) {}

/** 400 — a session cannot delete itself by id (sign out instead). */
export class CannotDeleteCurrentSession extends known("CANNOT_DELETE_CURRENT_SESSION", 400, NoDetails, () => "Cannot delete the current session.") {}

/** 401 — the OAuth provider refused to refresh its token (legacy, not raised today). */
export class ProviderRejected extends known(
  "PROVIDER_REJECTED",
  401,
  NoDetails,
  () =>
    "The provider refused to refresh their token. This usually means that the provider used to authenticate the user no longer regards this session as valid, and the user must re-authenticate."
) {}

/** Classes of the `INVALID_ACCESS_TOKEN` family. */
export const invalidAccessTokenClasses = [UnparsableAccessToken, AccessTokenExpired, InvalidProjectForAccessToken] as const

/** `INVALID_ACCESS_TOKEN`: the client marks the token expired and retries. */
export type InvalidAccessToken = InstanceType<(typeof invalidAccessTokenClasses)[number]>

/** Codes of the `INVALID_ACCESS_TOKEN` family. */
export const invalidAccessTokenCodes: ReadonlySet<string> = codesOf(invalidAccessTokenClasses)

/** Whether `u` is an instance of a class of the `INVALID_ACCESS_TOKEN` family. */
export const isInvalidAccessToken: FamilyGuard<InvalidAccessToken> = guardOf(invalidAccessTokenClasses)

/** Classes of the `INVALID_SESSION_AUTHENTICATION` family. */
export const invalidSessionAuthenticationClasses = invalidAccessTokenClasses

/** `INVALID_SESSION_AUTHENTICATION`: today exactly the `INVALID_ACCESS_TOKEN` family. */
export type InvalidSessionAuthentication = InstanceType<(typeof invalidSessionAuthenticationClasses)[number]>

/** Codes of the `INVALID_SESSION_AUTHENTICATION` family. */
export const invalidSessionAuthenticationCodes: ReadonlySet<string> = codesOf(invalidSessionAuthenticationClasses)

/** Whether `u` is an instance of a class of the `INVALID_SESSION_AUTHENTICATION` family. */
export const isInvalidSessionAuthentication: FamilyGuard<InvalidSessionAuthentication> = guardOf(invalidSessionAuthenticationClasses)

/** Classes of the `SESSION_AUTHENTICATION_ERROR` family. */
export const sessionAuthenticationErrorClasses = invalidSessionAuthenticationClasses

/** `SESSION_AUTHENTICATION_ERROR`: today exactly the `INVALID_SESSION_AUTHENTICATION` family. */
export type SessionAuthenticationError = InstanceType<(typeof sessionAuthenticationErrorClasses)[number]>

/** Codes of the `SESSION_AUTHENTICATION_ERROR` family. */
export const sessionAuthenticationErrorCodes: ReadonlySet<string> = codesOf(sessionAuthenticationErrorClasses)

/** Whether `u` is an instance of a class of the `SESSION_AUTHENTICATION_ERROR` family. */
export const isSessionAuthenticationError: FamilyGuard<SessionAuthenticationError> = guardOf(sessionAuthenticationErrorClasses)

/** Classes of the `REFRESH_TOKEN_ERROR` family. */
export const refreshTokenErrorClasses = [RefreshTokenNotFoundOrExpired, CannotDeleteCurrentSession, ProviderRejected] as const

/** `REFRESH_TOKEN_ERROR`: the refresh token is rejected, so the session is over. */
export type RefreshTokenError = InstanceType<(typeof refreshTokenErrorClasses)[number]>

/** Codes of the `REFRESH_TOKEN_ERROR` family. */
export const refreshTokenErrorCodes: ReadonlySet<string> = codesOf(refreshTokenErrorClasses)

/** Whether `u` is an instance of a class of the `REFRESH_TOKEN_ERROR` family. */
export const isRefreshTokenError: FamilyGuard<RefreshTokenError> = guardOf(refreshTokenErrorClasses)

/** The session section. */
const sessionClasses = classesOf(sessionAuthenticationErrorClasses, refreshTokenErrorClasses)

// ---------------------------------------------------------------------------------------------
// Users and projects
// ---------------------------------------------------------------------------------------------

/** 409 — another user already signs in with this e-mail. */
export class UserEmailAlreadyExists extends known(
  "USER_EMAIL_ALREADY_EXISTS",
  409,
  Schema.Struct({ email: Schema.String, would_work_if_email_was_verified: WouldWorkIfEmailWasVerified }),
  (d) => `A user with email "${d.email}" already exists${d.would_work_if_email_was_verified ? notVerifiedSuffix : "."}`
) {}

/** 400 — the e-mail is not verified (not raised today). */
export class EmailNotVerified extends known("EMAIL_NOT_VERIFIED", 400, NoDetails, () => "The email is not verified.") {}

/** 400 — `me` was used without a signed-in user. */
export class CannotGetOwnUserWithoutUser
  extends known("CANNOT_GET_OWN_USER_WITHOUT_USER", 400, NoDetails, () => "You have specified 'me' as a userId, but did not provide authentication for a user.")
{}

/** 400 — a user id given in the request does not exist. */
export class UserIdDoesNotExist
  extends known("USER_ID_DOES_NOT_EXIST", 400, Schema.Struct({ user_id: Schema.String }), (d) => `The given user with the ID ${d.user_id} does not exist.`)
{}

/** 404 — no such user. */
export class UserNotFound extends known("USER_NOT_FOUND", 404, NoDetails, () => "User not found.") {}

/** 403 — the signed-in user is restricted and the request did not allow restricted users. */
export class RestrictedUserNotAllowed extends known(
  "RESTRICTED_USER_NOT_ALLOWED",
  403,
  Schema.Struct({ restricted_reason: RestrictedReason }),
  (d) =>
    `The user in the access token is in restricted state. Reason: ${d.restricted_reason.type}. Please pass the X-Stack-Allow-Restricted-User header if this is intended.`
) {}

/** 404 — the project does not exist or the current user cannot see it. */
export class ProjectNotFound extends known(
  "PROJECT_NOT_FOUND",
  404,
  Schema.Struct({ project_id: Schema.String }),
  (d) => `Project ${d.project_id} not found or is not accessible with the current user.`
) {}

/** 400 — the project named by `x-stack-project-id` does not exist. */
export class CurrentProjectNotFound extends known(
  "CURRENT_PROJECT_NOT_FOUND",
  400,
  Schema.Struct({ project_id: Schema.String }),
  (d) => `The current project with ID ${d.project_id} was not found. Please check the value of the x-stack-project-id header.`
) {}

/** 400 — the branch does not exist. */
export class BranchDoesNotExist
  extends known("BRANCH_DOES_NOT_EXIST", 400, Schema.Struct({ branch_id: Schema.String }), (d) => `The branch with ID ${d.branch_id} does not exist.`)
{}

/** The users-and-projects section. */
const userClasses = [
  UserEmailAlreadyExists,
  EmailNotVerified,
  CannotGetOwnUserWithoutUser,
  UserIdDoesNotExist,
  UserNotFound,
  RestrictedUserNotAllowed,
  ProjectNotFound,
  CurrentProjectNotFound,
  BranchDoesNotExist
] as const

// ---------------------------------------------------------------------------------------------
// Sign-up and feature switches
// ---------------------------------------------------------------------------------------------

/** 400 — the project does not allow new accounts. */
export class SignUpNotEnabled extends known(
  "SIGN_UP_NOT_ENABLED",
  400,
  NoDetails,
  () => "Creation of new accounts is not enabled for this project. Please ask the project owner to enable it."
) {}

/** 403 — a sign-up rule of the project rejected the sign-up. */
export class SignUpRejected extends known(
  "SIGN_UP_REJECTED",
  403,
  Schema.Struct({ message: Schema.optional(Schema.String) }),
  (d) => d.message ?? "Your sign up was rejected by an administrator's sign-up rule."
) {}

/** 409 — the sign-up needs an additional (visible) bot challenge. */
export class BotChallengeRequired
  extends known("BOT_CHALLENGE_REQUIRED", 409, NoDetails, () => "An additional bot challenge is required before sign-up can continue.")
{}

/** 400 — the bot challenge token was rejected. */
export class BotChallengeFailed extends known("BOT_CHALLENGE_FAILED", 400, Schema.Struct({ message: Schema.String }), (d) => d.message) {}

/** 400 — password sign-in/sign-up is switched off for the project. */
export class PasswordAuthenticationNotEnabled
  extends known("PASSWORD_AUTHENTICATION_NOT_ENABLED", 400, NoDetails, () => "Password authentication is not enabled for this project.")
{}

/** 400 — passkeys are switched off for the project. */
export class PasskeyAuthenticationNotEnabled
  extends known("PASSKEY_AUTHENTICATION_NOT_ENABLED", 400, NoDetails, () => "Passkey authentication is not enabled for this project.")
{}

/** 400 — anonymous accounts are switched off for the project (not raised today). */
export class AnonymousAccountsNotEnabled
  extends known("ANONYMOUS_ACCOUNTS_NOT_ENABLED", 400, NoDetails, () => "Anonymous accounts are not enabled for this project.")
{}

/** 401 — an anonymous user's token was sent without `X-Stack-Allow-Anonymous-User: true`. */
export class AnonymousAuthenticationNotAllowed extends known(
  "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED",
  401,
  NoDetails,
  () =>
    "X-Stack-Access-Token is for an anonymous user, but anonymous users are not enabled. Set the X-Stack-Allow-Anonymous-User header of this request to 'true' to allow anonymous users."
) {}

/** The sign-up section. */
const signUpClasses = [
  SignUpNotEnabled,
  SignUpRejected,
  BotChallengeRequired,
  BotChallengeFailed,
  PasswordAuthenticationNotEnabled,
  PasskeyAuthenticationNotEnabled,
  AnonymousAccountsNotEnabled,
  AnonymousAuthenticationNotAllowed
] as const

// ---------------------------------------------------------------------------------------------
// Login and passwords (family PASSWORD_REQUIREMENTS_NOT_MET)
// ---------------------------------------------------------------------------------------------

/** 400 — wrong e-mail or password. */
export class EmailPasswordMismatch extends known("EMAIL_PASSWORD_MISMATCH", 400, NoDetails, () => "Wrong e-mail or password.") {}

/** 400 — a callback or redirect URL is not on the project's trusted domains. */
export class RedirectUrlNotWhitelisted extends known(
  "REDIRECT_URL_NOT_WHITELISTED",
  400,
  NoDetails,
  () => `Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the ${brand} dashboard?`
) {}

/** 400 — the password is shorter than the minimum. */
export class PasswordTooShort
  extends known("PASSWORD_TOO_SHORT", 400, Schema.Struct({ min_length: Schema.Number }), (d) => `Password too short. Minimum length is ${d.min_length}.`)
{}

/** 400 — the password is longer than the maximum. */
export class PasswordTooLong
  extends known("PASSWORD_TOO_LONG", 400, Schema.Struct({ maxLength: Schema.Number }), (d) => `Password too long. Maximum length is ${d.maxLength}.`)
{}

/** 400 — the user has no password to check or change. */
export class UserDoesNotHavePassword
  extends known("USER_DOES_NOT_HAVE_PASSWORD", 400, NoDetails, () => "This user does not have password authentication enabled.")
{}

/** 400 — the old password given to a password update is wrong. */
export class PasswordConfirmationMismatch extends known("PASSWORD_CONFIRMATION_MISMATCH", 400, NoDetails, () => "Passwords do not match.") {}

/** Classes of the `PASSWORD_REQUIREMENTS_NOT_MET` family. */
export const passwordRequirementsNotMetClasses = [PasswordTooShort, PasswordTooLong] as const

/** `PASSWORD_REQUIREMENTS_NOT_MET`: the new password is too short or too long. */
export type PasswordRequirementsNotMet = InstanceType<(typeof passwordRequirementsNotMetClasses)[number]>

/** Codes of the `PASSWORD_REQUIREMENTS_NOT_MET` family. */
export const passwordRequirementsNotMetCodes: ReadonlySet<string> = codesOf(passwordRequirementsNotMetClasses)

/** Whether `u` is an instance of a class of the `PASSWORD_REQUIREMENTS_NOT_MET` family. */
export const isPasswordRequirementsNotMet: FamilyGuard<PasswordRequirementsNotMet> = guardOf(passwordRequirementsNotMetClasses)

/** The login-and-passwords section. */
const loginClasses = classesOf(
  [EmailPasswordMismatch, RedirectUrlNotWhitelisted],
  passwordRequirementsNotMetClasses,
  [UserDoesNotHavePassword, PasswordConfirmationMismatch]
)

// ---------------------------------------------------------------------------------------------
// Verification codes and e-mails (family VERIFICATION_ERROR)
// ---------------------------------------------------------------------------------------------

/** 404 — the verification code does not exist. */
export class VerificationCodeNotFound
  extends known("VERIFICATION_CODE_NOT_FOUND", 404, NoDetails, () => "The verification code does not exist for this project.")
{}

/** 400 — the verification code has expired. */
export class VerificationCodeExpired extends known("VERIFICATION_CODE_EXPIRED", 400, NoDetails, () => "The verification code has expired.") {}

/** 409 — the verification code was already used. */
export class VerificationCodeAlreadyUsed
  extends known("VERIFICATION_CODE_ALREADY_USED", 409, NoDetails, () => "The verification link has already been used.")
{}

/** 400 — too many wrong attempts: the code is void. */
export class VerificationCodeMaxAttemptsReached extends known(
  "VERIFICATION_CODE_MAX_ATTEMPTS_REACHED",
  400,
  NoDetails,
  () => "The verification code nonce has reached the maximum number of attempts. This code is not valid anymore."
) {}

/** 409 — the e-mail is already verified. */
export class EmailAlreadyVerified extends known("EMAIL_ALREADY_VERIFIED", 409, NoDetails, () => "The e-mail is already verified.") {}

/** 400 — no user can log in with this e-mail (not raised today). */
export class EmailNotAssociatedWithUser
  extends known("EMAIL_NOT_ASSOCIATED_WITH_USER", 400, NoDetails, () => "The e-mail is not associated with a user that could log in with that e-mail.")
{}

/** 400 — the e-mail must be the user's primary e-mail. */
export class EmailIsNotPrimaryEmail extends known(
  "EMAIL_IS_NOT_PRIMARY_EMAIL",
  400,
  Schema.Struct({ email: Schema.String, primary_email: Schema.NullOr(Schema.String) }),
  (d) => `The given e-mail (${d.email}) must equal the user's primary e-mail (${d.primary_email}).`
) {}

/** Classes of the `VERIFICATION_ERROR` family. */
export const verificationErrorClasses = [
  VerificationCodeNotFound,
  VerificationCodeExpired,
  VerificationCodeAlreadyUsed,
  VerificationCodeMaxAttemptsReached
] as const

/** `VERIFICATION_ERROR`: the one-time code (e-mail link, OTP, invitation, MFA attempt) is unusable. */
export type VerificationError = InstanceType<(typeof verificationErrorClasses)[number]>

/** Codes of the `VERIFICATION_ERROR` family. */
export const verificationErrorCodes: ReadonlySet<string> = codesOf(verificationErrorClasses)

/** Whether `u` is an instance of a class of the `VERIFICATION_ERROR` family. */
export const isVerificationError: FamilyGuard<VerificationError> = guardOf(verificationErrorClasses)

/** The verification section. */
const verificationClasses = classesOf(verificationErrorClasses, [
  EmailAlreadyVerified,
  EmailNotAssociatedWithUser,
  EmailIsNotPrimaryEmail
])

// ---------------------------------------------------------------------------------------------
// Passkeys
// ---------------------------------------------------------------------------------------------

/** 400 — passkey registration failed (the service's reason is only in the message). */
export class PasskeyRegistrationFailed
  extends known("PASSKEY_REGISTRATION_FAILED", 400, NoDetails, () => "Failed to start passkey registration due to unknown error")
{}

/** 400 — client-side only: a browser WebAuthn ceremony error; `code` is its name (e.g. `ERROR_CEREMONY_ABORTED`). */
export class PasskeyWebauthnError
  extends known("PASSKEY_WEBAUTHN_ERROR", 400, Schema.Struct({ message: Schema.String, code: Schema.String }), (d) => d.message)
{}

/** 400 — passkey sign-in failed (the service's reason is only in the message). */
export class PasskeyAuthenticationFailed extends known("PASSKEY_AUTHENTICATION_FAILED", 400, NoDetails, () => "Failed to sign in with passkey") {}

/** The passkeys section. */
const passkeyClasses = [PasskeyRegistrationFailed, PasskeyWebauthnError, PasskeyAuthenticationFailed] as const

// ---------------------------------------------------------------------------------------------
// Permissions
// ---------------------------------------------------------------------------------------------

/** 404 — no permission definition with this id. */
export class PermissionNotFound extends known(
  "PERMISSION_NOT_FOUND",
  404,
  Schema.Struct({ permission_id: Schema.String }),
  (d) => `Permission "${d.permission_id}" not found. Make sure you created it on the dashboard.`
) {}

/** 404 — the permission exists, but for the other scope (team vs project). */
export class WrongPermissionScope extends known(
  "WRONG_PERMISSION_SCOPE",
  404,
  Schema.Struct({ permission_id: Schema.String, expected_scope: Schema.String, actual_scope: Schema.NullOr(Schema.String) }),
  (d) =>
    `Permission ${JSON.stringify(d.permission_id)} not found. (It was found for a different scope ${JSON.stringify(d.actual_scope)}, but scope ${
      JSON.stringify(d.expected_scope)
    } was expected.)`
) {}

/** 400 — a contained permission id does not exist. */
export class ContainedPermissionNotFound extends known(
  "CONTAINED_PERMISSION_NOT_FOUND",
  400,
  Schema.Struct({ permission_id: Schema.String }),
  (d) => `Contained permission with ID "${d.permission_id}" not found. Make sure you created it on the dashboard.`
) {}

/** 400 — a permission definition with this id already exists. */
export class PermissionIdAlreadyExists extends known(
  "PERMISSION_ID_ALREADY_EXISTS",
  400,
  Schema.Struct({ permission_id: Schema.String }),
  (d) => `Permission with ID "${d.permission_id}" already exists. Choose a different ID.`
) {}

/** 401 — the user lacks a project permission. */
export class ProjectPermissionRequired extends known(
  "PROJECT_PERMISSION_REQUIRED",
  401,
  Schema.Struct({ user_id: Schema.String, permission_id: Schema.String }),
  (d) => `User ${d.user_id} does not have permission ${d.permission_id}.`
) {}

/** 401 — the user lacks a team permission. */
export class TeamPermissionRequired extends known(
  "TEAM_PERMISSION_REQUIRED",
  401,
  Schema.Struct({ team_id: Schema.String, user_id: Schema.String, permission_id: Schema.String }),
  (d) => `User ${d.user_id} does not have permission ${d.permission_id} in team ${d.team_id}.`
) {}

/** 401 — the team permission to revoke is not granted to the user. */
export class TeamPermissionNotFound extends known(
  "TEAM_PERMISSION_NOT_FOUND",
  401,
  Schema.Struct({ team_id: Schema.String, user_id: Schema.String, permission_id: Schema.String }),
  (d) => `User ${d.user_id} does not have permission ${d.permission_id} in team ${d.team_id}.`
) {}

/** The permissions section. */
const permissionClasses = [
  PermissionNotFound,
  WrongPermissionScope,
  ContainedPermissionNotFound,
  PermissionIdAlreadyExists,
  ProjectPermissionRequired,
  TeamPermissionRequired,
  TeamPermissionNotFound
] as const

// ---------------------------------------------------------------------------------------------
// Teams
// ---------------------------------------------------------------------------------------------

/** 404 — no such team. */
export class TeamNotFound extends known("TEAM_NOT_FOUND", 404, Schema.Struct({ team_id: Schema.String }), (d) => `Team ${d.team_id} not found.`) {}

/** 409 — the team already exists (not in the service's published list of known errors). */
export class TeamAlreadyExists
  extends known("TEAM_ALREADY_EXISTS", 409, Schema.Struct({ team_id: Schema.String }), (d) => `Team ${d.team_id} already exists.`)
{}

/** 404 — the user is not a member of the team. */
export class TeamMembershipNotFound extends known(
  "TEAM_MEMBERSHIP_NOT_FOUND",
  404,
  Schema.Struct({ team_id: Schema.String, user_id: Schema.String }),
  (d) => `User ${d.user_id} is not found in team ${d.team_id}.`
) {}

/** 409 — the user is already a member of the team. */
export class TeamMembershipAlreadyExists extends known("TEAM_MEMBERSHIP_ALREADY_EXISTS", 409, NoDetails, () => "Team membership already exists.") {}

/** 403 — a restricted user tried to accept a team invitation. */
export class TeamInvitationRestrictedUserNotAllowed extends known(
  "TEAM_INVITATION_RESTRICTED_USER_NOT_ALLOWED",
  403,
  Schema.Struct({ restricted_reason: RestrictedReason }),
  (d) =>
    `Restricted users cannot accept team invitations. Reason: ${d.restricted_reason.type}. Please complete the onboarding process before accepting team invitations.`
) {}

/** The teams section. */
const teamClasses = [
  TeamNotFound,
  TeamAlreadyExists,
  TeamMembershipNotFound,
  TeamMembershipAlreadyExists,
  TeamInvitationRestrictedUserNotAllowed
] as const

// ---------------------------------------------------------------------------------------------
// OAuth and connected accounts
// ---------------------------------------------------------------------------------------------

/** 400 — the OAuth connection is not connected to any user. */
export class OauthConnectionNotConnectedToUser
  extends known("OAUTH_CONNECTION_NOT_CONNECTED_TO_USER", 400, NoDetails, () => "The OAuth connection is not connected to any user.")
{}

/** 409 — the OAuth account is already connected to another user. */
export class OauthConnectionAlreadyConnectedToAnotherUser
  extends known("OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER", 409, NoDetails, () => "The OAuth connection is already connected to another user.")
{}

/** 400 — the OAuth connection lacks a requested scope. */
export class OauthConnectionDoesNotHaveRequiredScope
  extends known("OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE", 400, NoDetails, () => "The OAuth connection does not have the required scope.")
{}

/** 400 — client-side only: no provider access token could be obtained for the connected account. */
export class OauthAccessTokenNotAvailable extends known(
  "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE",
  400,
  Schema.Struct({ provider: Schema.String, details: Schema.String }),
  (d) => `Failed to retrieve an OAuth access token for the connected account (provider: ${d.provider}). ${d.details}`
) {}

/** 400 — extra scopes need the project's own OAuth keys. */
export class OauthExtraScopeNotAvailableWithSharedOauthKeys extends known(
  "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
  400,
  NoDetails,
  () => "Extra scopes are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use extra scopes."
) {}

/** 400 — provider access tokens need the project's own OAuth keys. */
export class OauthAccessTokenNotAvailableWithSharedOauthKeys extends known(
  "OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
  400,
  NoDetails,
  () => "Access tokens are not available with shared OAuth keys. Please add your own OAuth keys on the Stack dashboard to use access tokens."
) {}

/** 400 — the OAuth client id/secret of the token endpoint are wrong. */
export class InvalidOauthClientIdOrSecret extends known(
  "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
  400,
  Schema.Struct({ client_id: Schema.optional(Schema.NullOr(Schema.String)) }),
  () =>
    "The OAuth client ID or secret is invalid. The client ID must be equal to the project ID (potentially with a hash and a branch ID), and the client secret must be a publishable client key."
) {}

/** 400 — a requested OAuth scope is not valid (the scope is not in details). */
export class InvalidScope extends known("INVALID_SCOPE", 400, NoDetails, () => "The requested scope is not a valid OAuth scope for Stack.") {}

/** 409 — the user is already connected to another OAuth account (not raised by the API today). */
export class UserAlreadyConnectedToAnotherOauthConnection extends known(
  "USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION",
  409,
  NoDetails,
  () => "The user is already connected to another OAuth account. Did you maybe selected the wrong account?"
) {}

/** 408 — the outer OAuth flow timed out. */
export class OuterOauthTimeout extends known("OUTER_OAUTH_TIMEOUT", 408, NoDetails, () => "The OAuth flow has timed out. Please sign in again.") {}

/** 400 — the OAuth provider is unknown or disabled for the project. */
export class OauthProviderNotFoundOrNotEnabled
  extends known("OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED", 400, NoDetails, () => "The OAuth provider is not found or not enabled.")
{}

/** 400 — Apple Sign In is on but no bundle ids are configured. */
export class AppleBundleIdNotConfigured extends known(
  "APPLE_BUNDLE_ID_NOT_CONFIGURED",
  400,
  NoDetails,
  () =>
    `Apple Sign In is enabled, but no Bundle IDs are configured. Please add your app's Bundle ID in the ${brand} dashboard under OAuth Providers > Apple > Apple Bundle IDs.`
) {}

/** 400 — another user already signs in with this provider account. */
export class OauthProviderAccountIdAlreadyUsedForSignIn extends known(
  "OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN",
  400,
  NoDetails,
  () => "A provider with the same account ID is already used for signing in."
) {}

/** 400 — the shared OAuth provider id is not valid (not raised today). */
export class InvalidSharedOauthProviderId extends known(
  "INVALID_SHARED_OAUTH_PROVIDER_ID",
  400,
  Schema.Struct({ provider_id: Schema.String }),
  (d) => `The shared OAuth provider with ID ${d.provider_id} is not valid.`
) {}

/** 400 — the standard OAuth provider id is not valid. */
export class InvalidStandardOauthProviderId extends known(
  "INVALID_STANDARD_OAUTH_PROVIDER_ID",
  400,
  Schema.Struct({ provider_id: Schema.String }),
  (d) => `The standard OAuth provider with ID ${d.provider_id} is not valid.`
) {}

/** 400 — the authorization code (or its PKCE verifier) is invalid. */
export class InvalidAuthorizationCode extends known("INVALID_AUTHORIZATION_CODE", 400, NoDetails, () => "The given authorization code is invalid.") {}

/** 400 — the Apple Sign In credentials could not be verified. */
export class InvalidAppleCredentials
  extends known("INVALID_APPLE_CREDENTIALS", 400, NoDetails, () => "The Apple Sign In credentials could not be verified. Please try signing in again.")
{}

/** 400 — the OAuth provider denied access. */
export class OauthProviderAccessDenied extends known("OAUTH_PROVIDER_ACCESS_DENIED", 400, NoDetails, () => "The OAuth provider denied access to the user.") {}

/** 503 — the OAuth provider is temporarily unavailable. */
export class OauthProviderTemporarilyUnavailable
  extends known("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE", 503, NoDetails, () => "The OAuth provider is temporarily unavailable. Please try signing in again.")
{}

/** 409 — the contact channel is already used for authentication by another account. */
export class ContactChannelAlreadyUsedForAuthBySomeoneElse extends known(
  "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE",
  409,
  Schema.Struct({
    type: Schema.String,
    contact_channel_value: Schema.NullOr(Schema.String),
    would_work_if_email_was_verified: WouldWorkIfEmailWasVerified
  }),
  (d) =>
    `This ${d.type} ${d.contact_channel_value ? `"(${d.contact_channel_value})"` : ""} is already used for authentication by another account${
      d.would_work_if_email_was_verified ? notVerifiedSuffix : "."
    }`
) {}

/** The OAuth section. */
const oauthClasses = [
  OauthConnectionNotConnectedToUser,
  OauthConnectionAlreadyConnectedToAnotherUser,
  OauthConnectionDoesNotHaveRequiredScope,
  OauthAccessTokenNotAvailable,
  OauthExtraScopeNotAvailableWithSharedOauthKeys,
  OauthAccessTokenNotAvailableWithSharedOauthKeys,
  InvalidOauthClientIdOrSecret,
  InvalidScope,
  UserAlreadyConnectedToAnotherOauthConnection,
  OuterOauthTimeout,
  OauthProviderNotFoundOrNotEnabled,
  AppleBundleIdNotConfigured,
  OauthProviderAccountIdAlreadyUsedForSignIn,
  InvalidSharedOauthProviderId,
  InvalidStandardOauthProviderId,
  InvalidAuthorizationCode,
  InvalidAppleCredentials,
  OauthProviderAccessDenied,
  OauthProviderTemporarilyUnavailable,
  ContactChannelAlreadyUsedForAuthBySomeoneElse
] as const

// ---------------------------------------------------------------------------------------------
// Multi-factor authentication
// ---------------------------------------------------------------------------------------------

/**
 * 400 — the user has MFA: finish the sign-in with a TOTP code and this attempt code
 * (`details.attempt_code`, or `Mfa.continuable`). The attempt code is a credential: JSON and
 * Node's inspect (so log lines) show it as `<redacted>`.
 */
export class MultiFactorAuthenticationRequired extends known(
  "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
  400,
  Schema.Struct({ attempt_code: Schema.String }),
  () => "Multi-factor authentication is required for this user."
) {
  /** The error without its attempt code. */
  override toJSON(): unknown {
    return { _tag: this._tag, code: this.code, status: this.status, message: this.message, details: { attempt_code: "<redacted>" } }
  }

  /** As {@link toJSON}, for Node's `util.inspect` (and `console.log`). */
  override [NodeInspectSymbol](): unknown {
    return this.toJSON()
  }
}

/** 400 — the TOTP code is wrong (the attempt code stays usable). */
export class InvalidTotpCode extends known("INVALID_TOTP_CODE", 400, NoDetails, () => "The TOTP code is invalid. Please try again.") {}

/** 401 — the endpoint needs a signed-in user. */
export class UserAuthenticationRequired
  extends known("USER_AUTHENTICATION_REQUIRED", 401, NoDetails, () => "User authentication required for this endpoint.")
{}

/** The multi-factor section. */
const mfaClasses = [MultiFactorAuthenticationRequired, InvalidTotpCode, UserAuthenticationRequired] as const

// ---------------------------------------------------------------------------------------------
// CLI authentication
// ---------------------------------------------------------------------------------------------

/** 400 — the CLI polling code is invalid or unknown (details are free-form and optional). */
export class InvalidPollingCode extends known("INVALID_POLLING_CODE", 400, FreeFormDetails, () => "The polling code is invalid or does not exist.") {}

/** 400 — client-side only: the CLI authentication failed. */
export class CliAuthError extends known("CLI_AUTH_ERROR", 400, NoDetails, () => "CLI authentication failed.") {}

/** 400 — client-side only: the CLI authentication request expired. */
export class CliAuthExpiredError extends known("CLI_AUTH_EXPIRED_ERROR", 400, NoDetails, () => "CLI authentication request expired. Please try again.") {}

/** 400 — client-side only: the CLI authentication token was already used. */
export class CliAuthUsedError extends known("CLI_AUTH_USED_ERROR", 400, NoDetails, () => "This authentication token has already been used.") {}

/** The CLI section. */
const cliClasses = [InvalidPollingCode, CliAuthError, CliAuthExpiredError, CliAuthUsedError] as const

// ---------------------------------------------------------------------------------------------
// API keys (family API_KEY_NOT_VALID)
// ---------------------------------------------------------------------------------------------

/** 401 — the API key has expired. */
export class ApiKeyExpired extends known("API_KEY_EXPIRED", 401, NoDetails, () => "API key has expired.") {}

/** 401 — the API key was revoked. */
export class ApiKeyRevoked extends known("API_KEY_REVOKED", 401, NoDetails, () => "API key has been revoked.") {}

/** 400 — a user key was given where a team key is expected, or the reverse. */
export class WrongApiKeyType extends known(
  "WRONG_API_KEY_TYPE",
  400,
  Schema.Struct({ expected_type: Schema.String, actual_type: Schema.String }),
  (d) => `This endpoint is for ${d.expected_type} API keys, but a ${d.actual_type} API key was provided.`
) {}

/** 404 — no such API key. */
export class ApiKeyNotFound extends known("API_KEY_NOT_FOUND", 404, NoDetails, () => "API key not found.") {}

/** 400 — public API keys cannot be revoked by the secret-scanner endpoint. */
export class PublicApiKeyCannotBeRevoked
  extends known("PUBLIC_API_KEY_CANNOT_BE_REVOKED", 400, NoDetails, () => "Public API keys cannot be revoked by the secretscanner endpoint.")
{}

/** Classes of the `API_KEY_NOT_VALID` family. */
export const apiKeyNotValidClasses = [ApiKeyExpired, ApiKeyRevoked, WrongApiKeyType, ApiKeyNotFound, PublicApiKeyCannotBeRevoked] as const

/** `API_KEY_NOT_VALID`: the API key cannot be used (the SDK's key check answers `none`); this whole section. */
export type ApiKeyNotValid = InstanceType<(typeof apiKeyNotValidClasses)[number]>

/** Codes of the `API_KEY_NOT_VALID` family. */
export const apiKeyNotValidCodes: ReadonlySet<string> = codesOf(apiKeyNotValidClasses)

/** Whether `u` is an instance of a class of the `API_KEY_NOT_VALID` family. */
export const isApiKeyNotValid: FamilyGuard<ApiKeyNotValid> = guardOf(apiKeyNotValidClasses)

// ---------------------------------------------------------------------------------------------
// E-mails and e-mail templates
// ---------------------------------------------------------------------------------------------

/** 409 — the e-mail template already exists (not raised today). */
export class EmailTemplateAlreadyExists extends known("EMAIL_TEMPLATE_ALREADY_EXISTS", 409, NoDetails, () => "Email template already exists.") {}

/** 400 — the action needs the project's own e-mail (SMTP) server. */
export class RequiresCustomEmailServer extends known(
  "REQUIRES_CUSTOM_EMAIL_SERVER",
  400,
  NoDetails,
  () => "This action requires a custom SMTP server. Please edit your email server configuration and try again."
) {}

/** 400 — the e-mail (template with theme) could not be rendered. */
export class EmailRenderingError
  extends known("EMAIL_RENDERING_ERROR", 400, Schema.Struct({ error: Schema.String }), (d) => `Failed to render email with theme: ${d.error}`)
{}

/** 400 — the template source could not be rewritten. */
export class TemplateSourceRewriteError
  extends known("TEMPLATE_SOURCE_REWRITE_ERROR", 400, Schema.Struct({ error: Schema.String }), (d) => `Failed to rewrite template source: ${d.error}`)
{}

/** 409 — an e-mail capacity boost is already active. */
export class EmailCapacityBoostAlreadyActive extends known(
  "EMAIL_CAPACITY_BOOST_ALREADY_ACTIVE",
  409,
  Schema.Struct({ expires_at: Schema.Union([Schema.String, Schema.Number]) }),
  (d) => `Email capacity boost is already active until ${d.expires_at}.`
) {}

/** 400 — the e-mail can no longer be edited in its current status. */
export class EmailNotEditable extends known(
  "EMAIL_NOT_EDITABLE",
  400,
  Schema.Struct({ email_id: Schema.String, status: Schema.String }),
  (d) =>
    `Email with ID "${d.email_id}" cannot be edited because it is in status "${d.status}". Only emails in PAUSED, PREPARING, RENDERING, RENDER_ERROR, SCHEDULED, QUEUED, or SERVER_ERROR status can be edited.`
) {}

/** The e-mails section. */
const emailClasses = [
  EmailTemplateAlreadyExists,
  RequiresCustomEmailServer,
  EmailRenderingError,
  TemplateSourceRewriteError,
  EmailCapacityBoostAlreadyActive,
  EmailNotEditable
] as const

// ---------------------------------------------------------------------------------------------
// Payments
// ---------------------------------------------------------------------------------------------

/** 400 — the product does not exist (or is server-only, or is an item). */
export class ProductDoesNotExist extends known(
  "PRODUCT_DOES_NOT_EXIST",
  400,
  Schema.Struct({ product_id: Schema.String, context: Schema.optional(Schema.NullOr(Schema.String)) }),
  (d) =>
    `Product with ID "${d.product_id}" ${
      d.context === "server_only"
        ? "is marked as server-only and cannot be accessed client side."
        : d.context === "item_exists"
        ? "does not exist, but an item with this ID exists."
        : "does not exist."
    }`
) {}

/** 404 — no such item. */
export class ItemNotFound extends known("ITEM_NOT_FOUND", 404, Schema.Struct({ item_id: Schema.String }), (d) => `Item with ID "${d.item_id}" not found.`) {}

/** 400 — the customer's type does not match the item's customer type. */
export class ItemCustomerTypeDoesNotMatch extends known(
  "ITEM_CUSTOMER_TYPE_DOES_NOT_MATCH",
  400,
  Schema.Struct({
    item_id: Schema.String,
    customer_id: Schema.String,
    item_customer_type: Schema.optional(Schema.NullOr(Schema.String)),
    actual_customer_type: Schema.String
  }),
  (d) =>
    `The ${d.actual_customer_type} with ID "${d.customer_id}" is not a valid customer for the item with ID "${d.item_id}". ${
      d.item_customer_type
        ? `The item is configured to only be available for ${d.item_customer_type} customers, but the customer is a ${d.actual_customer_type}.`
        : "The item is missing a customer type field. Please make sure it is set up correctly in your project configuration."
    }`
) {}

/** 400 — no such customer. */
export class CustomerDoesNotExist
  extends known("CUSTOMER_DOES_NOT_EXIST", 400, Schema.Struct({ customer_id: Schema.String }), (d) => `Customer with ID "${d.customer_id}" does not exist.`)
{}

/** 404 — no such subscription invoice. */
export class SubscriptionInvoiceNotFound extends known(
  "SUBSCRIPTION_INVOICE_NOT_FOUND",
  404,
  Schema.Struct({ subscription_invoice_id: Schema.String }),
  (d) => `Subscription invoice with ID "${d.subscription_invoice_id}" does not exist.`
) {}

/** 404 — no such one-time purchase. */
export class OneTimePurchaseNotFound extends known(
  "ONE_TIME_PURCHASE_NOT_FOUND",
  404,
  Schema.Struct({ one_time_purchase_id: Schema.String }),
  (d) => `One-time purchase with ID "${d.one_time_purchase_id}" does not exist.`
) {}

/** 400 — the subscription was already refunded. */
export class SubscriptionAlreadyRefunded extends known(
  "SUBSCRIPTION_ALREADY_REFUNDED",
  400,
  Schema.Struct({ subscription_id: Schema.String }),
  (d) => `Subscription with ID "${d.subscription_id}" was already refunded.`
) {}

/** 400 — the one-time purchase was already refunded. */
export class OneTimePurchaseAlreadyRefunded extends known(
  "ONE_TIME_PURCHASE_ALREADY_REFUNDED",
  400,
  Schema.Struct({ one_time_purchase_id: Schema.String }),
  (d) => `One-time purchase with ID "${d.one_time_purchase_id}" was already refunded.`
) {}

/** 400 — test-mode purchases cannot be refunded. */
export class TestModePurchaseNonRefundable
  extends known("TEST_MODE_PURCHASE_NON_REFUNDABLE", 400, NoDetails, () => "Test mode purchases are not refundable.")
{}

/** 400 — the customer's type does not match the (inline) product's customer type. */
export class ProductCustomerTypeDoesNotMatch extends known(
  "PRODUCT_CUSTOMER_TYPE_DOES_NOT_MATCH",
  400,
  Schema.Struct({
    product_id: Schema.optional(Schema.NullOr(Schema.String)),
    customer_id: Schema.String,
    product_customer_type: Schema.optional(Schema.NullOr(Schema.String)),
    actual_customer_type: Schema.String
  }),
  (d) =>
    `The ${d.actual_customer_type} with ID "${d.customer_id}" is not a valid customer for the inline product that has been passed in. ${
      d.product_customer_type
        ? `The product is configured to only be available for ${d.product_customer_type} customers, but the customer is a ${d.actual_customer_type}.`
        : "The product is missing a customer type field. Please make sure it is set up correctly in your project configuration."
    }`
) {}

/** 400 — the customer already owns the product. */
export class ProductAlreadyGranted extends known(
  "PRODUCT_ALREADY_GRANTED",
  400,
  Schema.Struct({ product_id: Schema.String, customer_id: Schema.String }),
  (d) => `Customer with ID "${d.customer_id}" already owns product "${d.product_id}".`
) {}

/** 400 — the customer does not hold enough of the item. */
export class ItemQuantityInsufficientAmount extends known(
  "ITEM_QUANTITY_INSUFFICIENT_AMOUNT",
  400,
  Schema.Struct({ item_id: Schema.String, customer_id: Schema.String, quantity: Schema.Number }),
  (d) =>
    `The item with ID "${d.item_id}" has an insufficient quantity for the customer with ID "${d.customer_id}". An attempt was made to charge ${d.quantity} credits.`
) {}

/** 404 — the project has no Stripe account information yet. */
export class StripeAccountInfoNotFound extends known(
  "STRIPE_ACCOUNT_INFO_NOT_FOUND",
  404,
  NoDetails,
  () => "Stripe account information not found. Please make sure the user has onboarded with Stripe."
) {}

/** 400 — the customer has no default payment method. */
export class DefaultPaymentMethodRequired extends known(
  "DEFAULT_PAYMENT_METHOD_REQUIRED",
  400,
  Schema.Struct({ customer_type: Schema.String, customer_id: Schema.String }),
  () => "No default payment method is set for this customer."
) {}

/** 403 — new purchases are blocked for the project. */
export class NewPurchasesBlocked extends known(
  "NEW_PURCHASES_BLOCKED",
  403,
  NoDetails,
  () => "New purchases are currently blocked for this project. Please contact support for more information."
) {}

/** The payments section. */
const paymentClasses = [
  ProductDoesNotExist,
  ItemNotFound,
  ItemCustomerTypeDoesNotMatch,
  CustomerDoesNotExist,
  SubscriptionInvoiceNotFound,
  OneTimePurchaseNotFound,
  SubscriptionAlreadyRefunded,
  OneTimePurchaseAlreadyRefunded,
  TestModePurchaseNonRefundable,
  ProductCustomerTypeDoesNotMatch,
  ProductAlreadyGranted,
  ItemQuantityInsufficientAmount,
  StripeAccountInfoNotFound,
  DefaultPaymentMethodRequired,
  NewPurchasesBlocked
] as const

// ---------------------------------------------------------------------------------------------
// Analytics
// ---------------------------------------------------------------------------------------------

/** 400 — the analytics query timed out. */
export class AnalyticsQueryTimeout extends known(
  "ANALYTICS_QUERY_TIMEOUT",
  400,
  Schema.Struct({ timeout_ms: Schema.Number }),
  (d) => `The query timed out. Please try again with a shorter query or increase the timeout. Timeout was ${d.timeout_ms}ms.`
) {}

/** 400 — the analytics query failed. */
export class AnalyticsQueryError extends known("ANALYTICS_QUERY_ERROR", 400, Schema.Struct({ error: Schema.String }), (d) => d.error) {}

/** 400 — analytics are not enabled for the project. */
export class AnalyticsNotEnabled extends known("ANALYTICS_NOT_ENABLED", 400, NoDetails, () => "Analytics is not enabled for this project.") {}

/** The analytics section. */
const analyticsClasses = [AnalyticsQueryTimeout, AnalyticsQueryError, AnalyticsNotEnabled] as const

// ---------------------------------------------------------------------------------------------
// Data vault
// ---------------------------------------------------------------------------------------------

/** 400 — no data-vault store with this id. */
export class DataVaultStoreDoesNotExist extends known(
  "DATA_VAULT_STORE_DOES_NOT_EXIST",
  400,
  Schema.Struct({ store_id: Schema.String }),
  (d) => `Data vault store with ID ${d.store_id} does not exist.`
) {}

/** 400 — the data-vault store holds no key with this hash. */
export class DataVaultStoreHashedKeyDoesNotExist extends known(
  "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST",
  400,
  Schema.Struct({ store_id: Schema.String, hashed_key: Schema.String }),
  (d) => `Data vault store with ID ${d.store_id} does not contain a key with hash ${d.hashed_key}.`
) {}

/** The data-vault section. */
const dataVaultClasses = [DataVaultStoreDoesNotExist, DataVaultStoreHashedKeyDoesNotExist] as const

// ---------------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------------

/** Every class of the catalogue, section by section (each class is listed once, in its section). */
const catalogue = classesOf(
  requestClasses,
  projectAuthenticationErrorClasses,
  sessionClasses,
  userClasses,
  signUpClasses,
  loginClasses,
  verificationClasses,
  passkeyClasses,
  permissionClasses,
  teamClasses,
  oauthClasses,
  mfaClasses,
  cliClasses,
  apiKeyNotValidClasses,
  emailClasses,
  paymentClasses,
  analyticsClasses,
  dataVaultClasses
)

/** Any instance of the catalogue. */
export type AnyKnownError = InstanceType<(typeof catalogue)[number]>

/** A class of the catalogue, as the registry holds it. */
export type AnyKnownErrorClass = KnownErrorClass<AnyKnownError["code"], any, AnyKnownError>

/** Every known-error class of the catalogue. */
export const all: ReadonlyArray<AnyKnownErrorClass> = catalogue

/** The catalogue keyed by wire code. */
export const byCode: ReadonlyMap<string, AnyKnownErrorClass> = new Map(all.map((cls) => [cls.code, cls]))
