/**
 * The service's e-mail notification categories and the users' choices about them (backend
 * `apps/backend/src/lib/notification-categories.ts`: two fixed categories, both on by default,
 * `Transactional` not to be disabled). A user's choices are its record's `notificationPreferences`.
 *
 * @module
 */
import type { UserRecord } from "./State.js"

/** A notification category of the service. */
export interface CategoryDefinition {
  readonly id: string
  readonly name: string
  readonly defaultEnabled: boolean
  readonly canDisable: boolean
}

/** The service's categories, in the order it lists them. */
export const categories: ReadonlyArray<CategoryDefinition> = [
  { id: "7bb82d33-2f54-4a3d-9d23-82739e0d66ef", name: "Transactional", defaultEnabled: true, canDisable: false },
  { id: "4f6f8873-3d04-46bd-8bef-18338b1a1b4c", name: "Marketing", defaultEnabled: true, canDisable: true }
]

/** Records a user's choice for a category (kept with the user's record). */
export const setPreference = (user: UserRecord, categoryId: string, enabled: boolean): void => {
  user.notificationPreferences.set(categoryId, enabled)
}

/** Whether a user receives a category: its choice, else the category's default. */
export const isEnabled = (user: UserRecord, category: CategoryDefinition): boolean => user.notificationPreferences.get(category.id) ?? category.defaultEnabled

/** A category as the routes answer it for a user (domain shape of the SDK's `NotificationCategory`). */
export const categoryView = (user: UserRecord, category: CategoryDefinition) => ({
  id: category.id,
  name: category.name,
  enabled: isEnabled(user, category),
  canDisable: category.canDisable
})
