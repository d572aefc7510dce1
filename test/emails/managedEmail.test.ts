/**
 * The managed e-mail provider's set-up through the SDK against the in-process emulator, as the
 * service answers in its mock mode (apps/backend/src/lib/managed-email-onboarding.tsx and
 * lib/managed-email-domains.tsx at 2f719903; routes internal/emails/managed-onboarding/*).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as TestClock from "effect/testing/TestClock"
import * as Emulator from "../../src/emulator/index.js"
import { Emails, ServerEmails, ServerUsers, Stack } from "../../src/index.js"
import { makeEmulator } from "../emulator/helpers.js"

const setup = Effect.gen(function* () {
  const emulator = yield* makeEmulator({})
  const app = Stack.layerAdmin({
    projectId: emulator.demo.projectId,
    httpClient: Emulator.layerHttpClient(emulator),
    superSecretAdminKey: emulator.demo.superSecretAdminKey,
    secretServerKey: emulator.demo.secretServerKey
  }).pipe(Layer.orDie)
  return { emulator, app }
})

describe("Emails: the managed e-mail provider", () => {
  it.effect("setup, check (verified 1 s later), list, apply: the project then sends without the shared server", () =>
    Effect.gen(function* () {
      const { emulator, app } = yield* setup
      yield* TestClock.setTime(Date.UTC(2026, 10, 20, 12))
      const user = yield* ServerUsers.create({ primaryEmail: "m@example.com" }).pipe(Effect.provide(app))
      const refused = yield* Effect.flip(ServerEmails.sendEmail({ userIds: [user.id], html: "<p>x</p>" }).pipe(Effect.provide(app)))
      expect(refused._tag).toBe("RequiresCustomEmailServer")
      const domain = yield* Emails.setupManagedEmailProvider({ subdomain: "Mail.Example.com.", senderLocalPart: "hello" }).pipe(Effect.provide(app))
      expect(domain).toEqual({
        domainId: `managed_mock_${emulator.demo.projectId}_mail.example.com`.replace(/[^a-zA-Z0-9_-]/g, "_"),
        subdomain: "mail.example.com",
        senderLocalPart: "hello",
        nameServerRecords: ["ns1.dnsimple.com", "ns2.dnsimple.com"],
        status: "pending_verification"
      })
      const check = { domainId: domain.domainId, subdomain: "mail.example.com", senderLocalPart: "hello" }
      expect(yield* Emails.checkManagedEmailStatus(check).pipe(Effect.provide(app))).toBe("pending_verification")
      const early = yield* Effect.flip(Emails.applyManagedEmailProvider({ domainId: domain.domainId }).pipe(Effect.provide(app)))
      expect(early).toMatchObject({ _tag: "HttpError", status: 409, body: "Managed domain is not verified yet" })
      yield* TestClock.adjust("1 second")
      expect(yield* Emails.checkManagedEmailStatus(check).pipe(Effect.provide(app))).toBe("verified")
      yield* Emails.applyManagedEmailProvider({ domainId: domain.domainId }).pipe(Effect.provide(app))
      expect((yield* Emails.listManagedEmailDomains().pipe(Effect.provide(app))).map((item) => item.status)).toEqual(["applied"])
      const project = emulator.state.projects.get(emulator.demo.projectId)!
      expect(project.configOverrides.get("environment")!["emails.server.provider"]).toBe("managed")
      // the override takes effect in the project's config (read from its override levels)
      expect(project.config.emailConfig).toMatchObject({ type: "standard", host: "smtp.resend.com", senderEmail: "hello@mail.example.com" })
      yield* ServerEmails.sendEmail({ userIds: [user.id], html: "<p>x</p>" }).pipe(Effect.provide(app))
      expect(emulator.outbox({ email: "m@example.com" }).filter((entry) => entry.kind === "sent_email")).toHaveLength(1)
    }))

  it.effect("the service's refusals: not a domain, a bad sender, another sender for the subdomain, unknown ids", () =>
    Effect.gen(function* () {
      const { app } = yield* setup
      const notDomain = yield* Effect.flip(Emails.setupManagedEmailProvider({ subdomain: "localhost", senderLocalPart: "a" }).pipe(Effect.provide(app)))
      expect(notDomain).toMatchObject({ status: 400, body: "subdomain must be a fully-qualified domain name like mail.example.com" })
      const badSender = yield* Effect.flip(
        Emails.setupManagedEmailProvider({ subdomain: "mail.example.com", senderLocalPart: "a b" }).pipe(Effect.provide(app))
      )
      expect(badSender).toMatchObject({ status: 400, body: "sender_local_part is invalid" })
      const first = yield* Emails.setupManagedEmailProvider({ subdomain: "mail.example.com", senderLocalPart: "a" }).pipe(Effect.provide(app))
      expect(yield* Emails.setupManagedEmailProvider({ subdomain: "mail.example.com", senderLocalPart: "a" }).pipe(Effect.provide(app))).toEqual(first)
      const other = yield* Effect.flip(Emails.setupManagedEmailProvider({ subdomain: "mail.example.com", senderLocalPart: "b" }).pipe(Effect.provide(app)))
      expect(other).toMatchObject({ status: 409, body: "This subdomain is already tracked with a different sender local part" })
      const unknownCheck = yield* Effect.flip(
        Emails.checkManagedEmailStatus({ domainId: "nope", subdomain: "mail.example.com", senderLocalPart: "a" }).pipe(Effect.provide(app))
      )
      expect(unknownCheck).toMatchObject({ status: 404, body: "Managed domain setup not found for this project/branch" })
      const unknownApply = yield* Effect.flip(Emails.applyManagedEmailProvider({ domainId: "nope" }).pipe(Effect.provide(app)))
      expect(unknownApply).toMatchObject({ status: 404, body: "Managed domain not found for this project/branch" })
    }))
})
