/**
 * Conformance of the contact-channel routes with the recorded wire samples (contact-channels/*):
 * each sample is replayed against a fresh emulator seeded with the samples' project after the
 * setup it needs (the recorded user signed up with a password, the channels created and codes
 * sent by replaying the earlier samples); the recorded ids and codes are replaced with live
 * values. Checked with `compare` (conformanceSupport.ts): status, known-error header, content
 * type, JSON shape, plain-text bodies verbatim.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Substitutions } from "./conformanceSupport.js"
import { compare, load, makeSampleBench, passwordSession, sampleInstant, samplePassword, tokenSubstitutions } from "./conformanceSupport.js"
import type { SampleBench } from "./conformanceSupport.js"

const responseBody = <T>(name: string) => load(name).response.body as T
const requestBody = <T>(name: string) => load(name).request.body as T

const recordedList = responseBody<{ items: ReadonlyArray<{ user_id: string; id: string; value: string }> }>("contact-channels/02-list")
const recordedUserId = recordedList.items[0]!.user_id
const recordedPrimaryEmail = recordedList.items[0]!.value
const recordedChannelId = responseBody<{ id: string }>("contact-channels/01-create").id
const recordedServerChannelId = responseBody<{ id: string }>("contact-channels/14-server-create-verified").id
const recordedCode = requestBody<{ code: string }>("contact-channels/07-verify").code

type Step = (bench: SampleBench, substitutions: Substitutions) => Effect.Effect<Substitutions>

/** The recorded user signed up with a password: its tokens and id as the placeholders / recorded id. */
const signedUp: Step = (bench) =>
  Effect.map(
    passwordSession(bench.emulator, bench.project, "sign-up", { email: recordedPrimaryEmail, password: samplePassword }),
    (tokens) => ({ ...tokenSubstitutions(tokens), [recordedUserId]: tokens.user_id })
  )

/** Replays a sample as a setup step, asserting its recorded status. */
const replayed = (name: string, capture?: (json: any) => Substitutions): Step => (bench, substitutions) =>
  Effect.gen(function* () {
    const answer = yield* bench.replay(name, substitutions)
    expect(answer.status, `${name}: ${answer.text}`).toBe(load(name).response.status)
    return capture === undefined ? {} : capture(answer.json)
  })

/** The code of the latest e-mail as the recorded code. */
const codeSent: Step = (bench) =>
  Effect.sync(() => {
    const code = bench.emulator.outbox().at(-1)?.code
    expect(code).toBeTypeOf("string")
    return { [recordedCode]: code! }
  })

const steps = (...list: ReadonlyArray<Step>): Step => (bench, initial) =>
  Effect.reduce(list, () => initial, (substitutions, step) => Effect.map(step(bench, substitutions), (more) => ({ ...substitutions, ...more })))

const created = replayed("contact-channels/01-create", (json) => ({ [recordedChannelId]: json.id as string }))
const codeForChannel = steps(signedUp, created, replayed("contact-channels/03-patch"), replayed("contact-channels/04-send-verification-code"), codeSent)
const verified = steps(codeForChannel, replayed("contact-channels/07-verify"))
const serverCreated = replayed("contact-channels/14-server-create-verified", (json) => ({ [recordedServerChannelId]: json.id as string }))

const cases: Readonly<Record<string, Step>> = {
  "contact-channels/01-create": signedUp,
  "contact-channels/02-list": steps(signedUp, created),
  "contact-channels/03-patch": steps(signedUp, created),
  "contact-channels/04-send-verification-code": steps(signedUp, created, replayed("contact-channels/03-patch")),
  "contact-channels/05-send-verification-code-by-email": signedUp,
  "contact-channels/06-verify-check-code": codeForChannel,
  "contact-channels/07-verify": codeForChannel,
  "contact-channels/08-verify-code-reused": verified,
  "contact-channels/09-verify-bad-code": signedUp,
  "contact-channels/10-list-after-verify": verified,
  "contact-channels/11-send-verification-code-already-verified": verified,
  "contact-channels/12-delete": steps(signedUp, created),
  "contact-channels/13-delete-again": steps(signedUp, created, replayed("contact-channels/12-delete")),
  "contact-channels/14-server-create-verified": signedUp,
  "contact-channels/15-server-list": steps(signedUp, serverCreated),
  "contact-channels/16-server-delete": steps(signedUp, serverCreated)
}

describe("conformance of the contact-channel routes with the recorded wire samples", () => {
  for (const [name, prepare] of Object.entries(cases)) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(sampleInstant)
        const bench = yield* makeSampleBench()
        const substitutions = yield* prepare(bench, {})
        const answer = yield* bench.replay(name, substitutions)
        expect(compare(load(name).response, answer)).toEqual([])
      }))
  }

  it.effect("10-list-after-verify: the verified channel is the one the code was sent for, the primary e-mail stays unverified", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(sampleInstant)
      const bench = yield* makeSampleBench()
      const substitutions = yield* verified(bench, {})
      const answer = yield* bench.replay("contact-channels/10-list-after-verify", substitutions)
      expect(answer.json.items.map((item: any) => [item.is_primary, item.is_verified])).toEqual([
        [true, false],
        [false, true]
      ])
      expect(answer.json.items[1].id).toBe(substitutions[recordedChannelId])
    }))
})
