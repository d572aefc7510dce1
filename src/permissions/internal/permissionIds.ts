/**
 * Permission ids (docs/ARCHITECTURE.md): the system team permissions, the forms of custom and
 * system ids and the service's texts for a wrong one, used by `Permissions.ts` (which exports
 * them), the domain's descriptors, the emulator and tests.
 *
 * @module
 */
import * as Schema from "effect/Schema"
import { withMessage } from "../../core/Wire.js"

/** The system team permissions, in the service's order. */
export const systemTeamPermissionIds = [
  "$update_team",
  "$delete_team",
  "$read_members",
  "$remove_members",
  "$invite_members",
  "$manage_api_keys"
] as const

/** A system team permission id. */
export type SystemTeamPermissionId = (typeof systemTeamPermissionIds)[number]

/** The pattern of custom permission ids (definitions the project creates). */
export const customPermissionIdPattern = /^[a-z0-9_:]+$/

/** The service's message for a custom id that does not match {@link customPermissionIdPattern}. */
export const customPermissionIdMessage = "Only lowercase letters, numbers, \":\", \"_\" are allowed"

/** The service's message for a permission id (custom or `$` system) of the wrong form. */
export const permissionIdMessage = "Only lowercase letters, numbers, \":\", \"_\" and optional \"$\" at the beginning are allowed"

/** The service's message for a `$` id that is not one of the system permissions. */
export const invalidSystemPermissionMessage = "Invalid system permission"

/**
 * Why `id` is not a permission id (custom or system), or `undefined` when it is one. The texts
 * are the service's.
 */
export const permissionIdProblem = (id: string): string | undefined => {
  if (!/^\$?[a-z0-9_:]+$/.test(id)) return permissionIdMessage
  if (id.startsWith("$") && !(systemTeamPermissionIds as ReadonlyArray<string>).includes(id)) return invalidSystemPermissionMessage
  return undefined
}

/** A permission id: custom (`^[a-z0-9_:]+$`) or one of the `$` system team permissions. */
export const PermissionId = Schema.String.check(Schema.makeFilter((id: string) => permissionIdProblem(id) ?? true))

/** A custom permission id (`^[a-z0-9_:]+$`): the id of a definition the project creates. */
export const CustomPermissionId = Schema.String.check(withMessage((id: string) => customPermissionIdPattern.test(id), customPermissionIdMessage))
