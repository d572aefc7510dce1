/**
 * The outbox: every e-mail the emulator "sends" is kept here instead, with the code and link it
 * carries, so tests and local apps can follow verification links. Read it through
 * `Emulator.outbox(...)` or `GET /api/v1/emulator/outbox?email=&project_id=`. It keeps the newest
 * {@link maxEntries} e-mails.
 *
 * @module
 */
import { randomUuid } from "./Random.js"
import type { CodePurpose, EmulatorState, OutboxEntry } from "./State.js"

export type { OutboxEntry } from "./State.js"

/** Which outbox entries to list (all given conditions must hold). */
export interface OutboxFilter {
  /** Recipient (exact, case-insensitive). */
  readonly email?: string | undefined
  readonly projectId?: string | undefined
  readonly kind?: CodePurpose | undefined
}

/** Entries matching a filter, oldest first. */
export const list = (state: EmulatorState, filter: OutboxFilter = {}): ReadonlyArray<OutboxEntry> =>
  state.outbox.filter(
    (entry) =>
      (filter.email === undefined || entry.to.toLowerCase() === filter.email.toLowerCase()) &&
      (filter.projectId === undefined || entry.projectId === filter.projectId) &&
      (filter.kind === undefined || entry.kind === filter.kind)
  )

/** The newest entry matching a filter, if any. */
export const latest = (state: EmulatorState, filter: OutboxFilter = {}): OutboxEntry | undefined => {
  const entries = list(state, filter)
  return entries[entries.length - 1]
}

/**
 * How many e-mails the outbox keeps: the newest ones. Anyone may make the emulator "send" e-mail
 * (sign-in codes, password resets), so the outbox must not grow without bound.
 */
export const maxEntries = 10_000

/** Appends an e-mail to the outbox (dropping the oldest beyond {@link maxEntries}). */
export const send = (state: EmulatorState, entry: Omit<OutboxEntry, "id">): OutboxEntry => {
  const sent: OutboxEntry = { id: randomUuid(), ...entry }
  state.outbox.push(sent)
  if (state.outbox.length > maxEntries) state.outbox.splice(0, state.outbox.length - maxEntries)
  return sent
}

/** Appends `code=<code>` to a callback URL (keeping its other query parameters). */
export const linkWithCode = (callbackUrl: string, code: string): string => {
  const url = new URL(callbackUrl)
  url.searchParams.set("code", code)
  return url.toString()
}
