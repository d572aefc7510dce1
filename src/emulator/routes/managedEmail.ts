/**
 * The managed e-mail provider's set-up (backend `apps/backend/src/app/api/latest/internal/emails/managed-onboarding/`
 * over `lib/managed-email-onboarding.tsx` and `lib/managed-email-domains.tsx` at 2f719903), as the
 * service answers in its mock mode (`STACK_RESEND_API_KEY=mock_resend_api_key` in development and
 * tests: no call to Resend or DNSimple):
 *
 * - setup: the subdomain (trimmed, lower case, without trailing dots) must be a domain name and
 *   the sender local part valid (400 texts); the same subdomain again answers its row (409 when the
 *   sender differs); a new row has the id `managed_mock_<tenancy>_<subdomain>` (the emulator's
 *   tenancy is the project id), the name servers `ns1.dnsimple.com`, `ns2.dnsimple.com`, state
 *   `pending_verification`, and is verified 1 s later (the service's mock webhook).
 * - check: the row's state (404 when id, subdomain or sender do not match).
 * - list: the rows, the latest change first.
 * - apply: 404 for an unknown id, 409 before verification; writes the service's
 *   environment-level config keys (`emails.server.isShared: false`, `provider: "managed"`, …),
 *   demotes another applied domain to verified and marks this one applied.
 *
 * @module
 */
import { Effect } from "effect"
import { managedApplyEndpoint, managedCheckEndpoint, managedListEndpoint, managedSetupEndpoint } from "../../emails/internal/emails.js"
import type { ManagedEmailDomain, ManagedEmailDomainStatus } from "../../emails/internal/emails.js"
import { overrideLevel } from "../ConfigOverrides.js"
import { projectOf } from "../RequestContext.js"
import { TextFailure } from "../Responses.js"
import { route } from "../Router.js"
import type { ManagedEmailDomainRecord, ProjectRecord } from "../State.js"

/** The mock's delay before a new domain is verified (the service waits 1 s). */
export const mockVerificationDelayMillis = 1000

const normalize = (name: string) => name.trim().toLowerCase().replace(/\.+$/, "")

const subdomainPattern = /^(?=.{1,253}$)(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z0-9-]{2,63}$/
const senderPattern = /^[a-zA-Z0-9._%+-]+$/

const fail = (status: number, text: string) => Effect.fail(new TextFailure({ status, text }))

const validate = (subdomain: string, senderLocalPart: string) =>
  !subdomainPattern.test(subdomain)
    ? fail(400, "subdomain must be a fully-qualified domain name like mail.example.com")
    : !senderPattern.test(senderLocalPart)
    ? fail(400, "sender_local_part is invalid")
    : Effect.void

/** A row's state at `nowMillis`. */
export const statusOf = (record: ManagedEmailDomainRecord, nowMillis: number): ManagedEmailDomainStatus =>
  record.appliedAtMillis !== null ? "applied" : nowMillis >= record.verifiedAtMillis ? "verified" : "pending_verification"

const view = (record: ManagedEmailDomainRecord, nowMillis: number): ManagedEmailDomain => ({
  domainId: record.domainId,
  subdomain: record.subdomain,
  senderLocalPart: record.senderLocalPart,
  nameServerRecords: [...record.nameServerRecords],
  status: statusOf(record, nowMillis)
})

/** The service's environment-level keys of an applied managed provider (`saveManagedEmailProviderConfig`). */
const applyConfig = (project: ProjectRecord, record: ManagedEmailDomainRecord) =>
  overrideLevel(project, "environment", {
    "emails.server.isShared": false,
    "emails.server.provider": "managed",
    "emails.server.password": `managed_mock_key_${project.id}`,
    "emails.server.senderName": project.displayName,
    "emails.server.senderEmail": `${record.senderLocalPart}@${record.subdomain}`,
    "emails.server.managedSubdomain": record.subdomain,
    "emails.server.managedSenderLocalPart": record.senderLocalPart
  })

/** The managed-provider routes. */
export const routes = [
  route(managedSetupEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const subdomain = normalize(payload.subdomain)
      yield* validate(subdomain, payload.senderLocalPart)
      const existing = project.managedEmailDomains.get(subdomain)
      if (existing !== undefined) {
        if (existing.senderLocalPart !== payload.senderLocalPart) {
          return yield* fail(409, "This subdomain is already tracked with a different sender local part")
        }
        return view(existing, context.nowMillis)
      }
      const record: ManagedEmailDomainRecord = {
        domainId: `managed_mock_${project.id}_${subdomain}`.replace(/[^a-zA-Z0-9_-]/g, "_"),
        subdomain,
        senderLocalPart: payload.senderLocalPart,
        nameServerRecords: ["ns1.dnsimple.com", "ns2.dnsimple.com"],
        verifiedAtMillis: context.nowMillis + mockVerificationDelayMillis,
        appliedAtMillis: null,
        updatedAtMillis: context.nowMillis
      }
      project.managedEmailDomains.set(subdomain, record)
      return view(record, context.nowMillis)
    })),
  route(managedCheckEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const subdomain = normalize(payload.subdomain)
      yield* validate(subdomain, payload.senderLocalPart)
      const record = projectOf(context).managedEmailDomains.get(subdomain)
      if (record === undefined || record.domainId !== payload.domainId || record.senderLocalPart !== payload.senderLocalPart) {
        return yield* fail(404, "Managed domain setup not found for this project/branch")
      }
      return { status: statusOf(record, context.nowMillis) }
    })),
  route(managedListEndpoint, (_input, context) =>
    Effect.sync(() => ({
      items: [...projectOf(context).managedEmailDomains.values()]
        .sort((a, b) => b.updatedAtMillis - a.updatedAtMillis)
        .map((record) => view(record, context.nowMillis))
    }))),
  route(managedApplyEndpoint, ({ payload }, context) =>
    Effect.gen(function* () {
      const project = projectOf(context)
      const record = [...project.managedEmailDomains.values()].find((candidate) => candidate.domainId === payload.domainId)
      if (record === undefined) return yield* fail(404, "Managed domain not found for this project/branch")
      const status = statusOf(record, context.nowMillis)
      if (status === "applied") return { status: "applied" as const }
      if (status !== "verified") return yield* fail(409, "Managed domain is not verified yet")
      applyConfig(project, record)
      for (const other of project.managedEmailDomains.values()) {
        if (other !== record && other.appliedAtMillis !== null) {
          other.appliedAtMillis = null
          other.updatedAtMillis = context.nowMillis
        }
      }
      record.appliedAtMillis = context.nowMillis
      record.updatedAtMillis = context.nowMillis
      return { status: "applied" as const }
    }))
]
