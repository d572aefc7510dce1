/**
 * The wire definitions of `Users` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Users.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Schema from "effect/Schema"
import * as Endpoint from "../../core/Endpoint.js"
import { CannotGetOwnUserWithoutUser, PasswordTooLong, PasswordTooShort, TeamMembershipNotFound, UserEmailAlreadyExists } from "../../core/KnownErrors.js"
import { Json, optionalField, SuccessTrue, Uuid, wireStruct } from "../../core/Wire.js"
import { CurrentUser } from "../User.js"

/** `GET /users/me` (client access). */
export const getCurrentEndpoint = Endpoint.make({
  name: "Users.getCurrent",
  method: "GET",
  path: "/users/me",
  access: "client",
  session: "required",
  success: CurrentUser,
  errors: [CannotGetOwnUserWithoutUser]
})

/** Fields the signed-in user may change (client access). */
export const CurrentUserUpdate = wireStruct({
  displayName: optionalField("display_name", Schema.NullOr(Schema.String.check(Schema.isMaxLength(256)))),
  clientMetadata: optionalField("client_metadata", Json),
  selectedTeamId: optionalField("selected_team_id", Schema.NullOr(Uuid)),
  profileImageUrl: optionalField("profile_image_url", Schema.NullOr(Schema.String)),
  totpSecretBase64: optionalField("totp_secret_base64", Schema.NullOr(Schema.String)),
  otpAuthEnabled: optionalField("otp_auth_enabled", Schema.Boolean),
  passkeyAuthEnabled: optionalField("passkey_auth_enabled", Schema.Boolean),
  primaryEmail: optionalField("primary_email", Schema.NullOr(Schema.String))
})

/** An update of the signed-in user. */
export type CurrentUserUpdate = typeof CurrentUserUpdate.Type

/** `PATCH /users/me` (client access). */
export const updateCurrentEndpoint = Endpoint.make({
  name: "Users.updateCurrent",
  method: "PATCH",
  path: "/users/me",
  access: "client",
  session: "required",
  payload: CurrentUserUpdate,
  success: CurrentUser,
  errors: [CannotGetOwnUserWithoutUser, UserEmailAlreadyExists, TeamMembershipNotFound, PasswordTooShort, PasswordTooLong]
})

/** `DELETE /users/me` (client access; only when the project allows client user deletion). */
export const deleteCurrentEndpoint = Endpoint.make({
  name: "Users.deleteCurrent",
  method: "DELETE",
  path: "/users/me",
  access: "client",
  session: "required",
  success: SuccessTrue,
  errors: [CannotGetOwnUserWithoutUser]
})

/** The service's answer (400, plain text) when the project does not let users delete themselves. */
export const clientUserDeletionDisabledText = "Client user deletion is not enabled for this project"
