/**
 * A user's contact channels: the primary one (made of the user's `primaryEmail` fields, its id
 * assigned when first shown) and the others (`UserRecord.contactChannels`), their wire view, and
 * verifying the channel a code was sent for.
 *
 * @module
 */
import type { ContactChannel } from "../contact-channels/ContactChannels.js"
import { randomUuid } from "./Random.js"
import type { CodeRecord, ContactChannelRecord, ProjectRecord, UserRecord } from "./State.js"

/** The channel of a user with this id: its primary e-mail, or one of its other channels. */
export type Found = { readonly primary: true } | { readonly primary: false; readonly record: ContactChannelRecord }

/** The id of the user's primary channel (assigned when first shown), or undefined without a primary e-mail. */
export const primaryIdOf = (user: UserRecord): string | undefined => {
  if (user.primaryEmail === null) {
    delete user.primaryChannelId
    return undefined
  }
  if (user.primaryChannelId === undefined) user.primaryChannelId = randomUuid()
  return user.primaryChannelId
}

/** Every channel of a user, the primary one first. */
export const channelsOf = (user: UserRecord): Array<ContactChannel> => {
  const primaryId = primaryIdOf(user)
  const primary: Array<ContactChannel> = primaryId === undefined || user.primaryEmail === null
    ? []
    : [
      {
        id: primaryId,
        userId: user.id,
        type: "email",
        value: user.primaryEmail,
        isVerified: user.primaryEmailVerified,
        isPrimary: true,
        usedForAuth: user.primaryEmailAuthEnabled
      }
    ]
  return [
    ...primary,
    ...user.contactChannels.map((record): ContactChannel => ({
      id: record.id,
      userId: user.id,
      type: "email",
      value: record.value,
      isVerified: record.isVerified,
      isPrimary: false,
      usedForAuth: record.usedForAuth
    }))
  ]
}

/** The channel of a user with this id, if any. */
export const findChannel = (user: UserRecord, id: string): Found | undefined => {
  if (primaryIdOf(user) === id) return { primary: true }
  const record = user.contactChannels.find((channel) => channel.id === id)
  return record === undefined ? undefined : { primary: false, record }
}

/**
 * Moves the primary e-mail (if any) into the other channels, keeping its id, verified state and
 * `used_for_auth` (the service's `demoteAllContactChannelsToNonPrimary` only clears `isPrimary`:
 * `apps/backend/src/lib/contact-channel.tsx` at stack-auth/stack-auth 2f719903); the user has no
 * primary e-mail after.
 */
export const demotePrimary = (user: UserRecord): void => {
  const primaryId = primaryIdOf(user)
  if (primaryId !== undefined && user.primaryEmail !== null) {
    user.contactChannels.push({
      id: primaryId,
      value: user.primaryEmail,
      isVerified: user.primaryEmailVerified,
      usedForAuth: user.primaryEmailAuthEnabled
    })
  }
  user.primaryEmail = null
  user.primaryEmailVerified = false
  user.primaryEmailAuthEnabled = false
  delete user.primaryChannelId
}

/** Makes another channel of the user the primary one (the old primary becomes another channel). */
export const promote = (user: UserRecord, record: ContactChannelRecord): void => {
  const others = user.contactChannels
  others.splice(others.indexOf(record), 1)
  demotePrimary(user)
  user.primaryEmail = record.value
  user.primaryEmailVerified = record.isVerified
  user.primaryEmailAuthEnabled = record.usedForAuth
  user.primaryChannelId = record.id
}

/**
 * Verifies the channel a used code was sent for (`POST /contact-channels/verify`); fails with
 * `false` when the channel was deleted or its value changed since (the route answers 400 text).
 */
export const verifyChannelCode = (project: ProjectRecord, record: CodeRecord & { readonly contactChannelId: string }): boolean => {
  const user = record.userId === null ? undefined : project.users.get(record.userId)
  if (user === undefined) return false
  const found = findChannel(user, record.contactChannelId)
  if (found === undefined) return false
  if (found.primary) {
    if (user.primaryEmail !== record.email) return false
    user.primaryEmailVerified = true
    return true
  }
  if (found.record.value !== record.email) return false
  found.record.isVerified = true
  return true
}
