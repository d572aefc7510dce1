/**
 * Internal (project) API keys (PROTOCOL.md §3.7, wire samples internal-api-keys/*): list, create,
 * get and revoke the current project's key sets (admin access). Values are answered in full only
 * by the create call, otherwise as `{ last_four }`. A revoked or expired key set stops
 * authenticating at once (ProjectAuth checks every key against `isKeySetValid`). Key sets without
 * an expiry (the seeded ones) answer `expires_at_millis` 2100-01-01.
 *
 * @module
 */
import { Effect, Redacted } from "effect"
import { ApiKeyNotFound } from "../../core/KnownErrors.js"
import type { InternalApiKey } from "../../projects/InternalApiKeys.js"
import { createEndpoint, getEndpoint, listEndpoint, updateEndpoint } from "../../projects/internal/internalApiKeys.js"
import { randomToken45, randomUuid } from "../Random.js"
import type { RequestContext } from "../RequestContext.js"
import { projectOf } from "../RequestContext.js"
import { route } from "../Router.js"
import type { ProjectKeySet } from "../State.js"

/** `expires_at_millis` of a key set without expiry (2100-01-01, as the service shows its setup keys). */
export const noExpiryMillis = 4_102_444_800_000

const lastFour = (value: string) => ({ lastFour: value.slice(-4) })

const common = (keys: ProjectKeySet) => ({
  id: keys.id,
  description: keys.description,
  createdAt: new Date(keys.createdAtMillis),
  expiresAt: new Date(keys.expiresAtMillis ?? noExpiryMillis),
  ...(keys.revokedAtMillis !== undefined ? { manuallyRevokedAt: new Date(keys.revokedAtMillis) } : {})
})

/** The read view of a key set (values obfuscated). */
export const keyView = (keys: ProjectKeySet): InternalApiKey => ({
  ...common(keys),
  ...(keys.publishableClientKey !== undefined ? { publishableClientKey: lastFour(keys.publishableClientKey) } : {}),
  ...(keys.secretServerKey !== undefined ? { secretServerKey: lastFour(keys.secretServerKey) } : {}),
  ...(keys.superSecretAdminKey !== undefined ? { superSecretAdminKey: lastFour(keys.superSecretAdminKey) } : {})
})

const find = (context: RequestContext, id: string) => {
  const keys = projectOf(context).keys.find((candidate) => candidate.id === id)
  return keys === undefined ? Effect.fail(ApiKeyNotFound.make({})) : Effect.succeed(keys)
}

/** The internal API key routes. */
export const routes = [
  route(listEndpoint, (_input, context) =>
    Effect.sync(() => ({
      items: [...projectOf(context).keys].sort((a, b) => b.createdAtMillis - a.createdAtMillis).map(keyView),
      isPaginated: false
    }))),
  route(createEndpoint, ({ payload }, context) =>
    Effect.sync(() => {
      const keys: ProjectKeySet = {
        id: randomUuid(),
        description: payload.description,
        publishableClientKey: payload.hasPublishableClientKey ? `pck_${randomToken45()}` : undefined,
        secretServerKey: payload.hasSecretServerKey ? `ssk_${randomToken45()}` : undefined,
        superSecretAdminKey: payload.hasSuperSecretAdminKey ? `sak_${randomToken45()}` : undefined,
        createdAtMillis: context.nowMillis,
        expiresAtMillis: payload.expiresAt.getTime(),
        revokedAtMillis: undefined
      }
      projectOf(context).keys.push(keys)
      return {
        ...common(keys),
        ...(keys.publishableClientKey !== undefined ? { publishableClientKey: Redacted.make(keys.publishableClientKey) } : {}),
        ...(keys.secretServerKey !== undefined ? { secretServerKey: Redacted.make(keys.secretServerKey) } : {}),
        ...(keys.superSecretAdminKey !== undefined ? { superSecretAdminKey: Redacted.make(keys.superSecretAdminKey) } : {})
      }
    })),
  route(getEndpoint, ({ params }, context) => Effect.map(find(context, params.apiKeyId), keyView)),
  route(updateEndpoint, ({ params, payload }, context) =>
    Effect.map(find(context, params.apiKeyId), (keys) => {
      if (payload.description !== undefined) keys.description = payload.description
      if (payload.revoked === true && keys.revokedAtMillis === undefined) keys.revokedAtMillis = context.nowMillis
      return keyView(keys)
    }))
]
