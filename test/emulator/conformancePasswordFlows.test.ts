/**
 * Conformance of the password, e-mail verification and magic-link routes with the recorded
 * wire samples (auth/13–16, 23–30, contact-channels/05–09), in the manner of conformance.test.ts:
 * each sample is replayed against a fresh emulator seeded with the samples' project, after the
 * setup it needs; placeholders and recorded codes are replaced by live values; compared: status,
 * `x-stack-known-error`, content type, and the body's shape (key sets, value types).
 *
 * The loading, replay and comparison helpers are shared (conformanceSupport.ts).
 * contact-channels/04 (send a code for a channel by id) belongs to the contact-channel routes,
 * not covered here.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Emulator, ProjectCredentials } from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import { clientHeaders, makeEmulator, send } from "./helpers.js"
import type { Substitutions } from "./conformanceSupport.js"
import {
  compare,
  load,
  makeSampleBench,
  passwordSession,
  projectId,
  publishableClientKey,
  replaySample,
  sampleEmail,
  sampleInstant,
  samplePassword,
  tokenSubstitutions
} from "./conformanceSupport.js"

interface Setup {
  readonly emulator: Emulator
  readonly project: ProjectCredentials
  readonly signUp: (email: string) => Effect.Effect<{ access_token: string; refresh_token: string }>
  readonly replay: (name: string, substitutions?: Substitutions) => Effect.Effect<Answer>
}

type Prepare = (setup: Setup) => Effect.Effect<Substitutions>

const nothing: Prepare = () => Effect.succeed({})

/** The latest e-mailed code replaces the sample's recorded code. */
const codeOf = (setup: Setup, sampleCode: string, email?: string) => {
  const entry = setup.emulator.latestEmail({ projectId, ...(email !== undefined ? { email } : {}) })
  return { [sampleCode]: entry!.code! }
}

const recordedCode = (name: string) => (load(name).request.body as { code: string }).code

const signedIn = (setup: Setup, email = sampleEmail) => Effect.map(setup.signUp(email), tokenSubstitutions)

/** A reset code for the sample's user (auth/25's e-mail), standing in for the recorded one. */
const resetCode: Prepare = (setup) =>
  Effect.gen(function* () {
    const email = (load("auth/25-password-send-reset-code").request.body as { email: string }).email
    yield* setup.signUp(email)
    yield* setup.replay("auth/25-password-send-reset-code")
    return codeOf(setup, recordedCode("auth/27-password-reset-check-code"), email)
  })

/** A verification code for the user of contact-channels/05, standing in for the recorded one. */
const verificationCode: Prepare = (setup) =>
  Effect.gen(function* () {
    const email = (load("contact-channels/05-send-verification-code-by-email").request.body as { email: string }).email
    const tokens = yield* setup.signUp(email)
    yield* setup.replay("contact-channels/05-send-verification-code-by-email", { "<access-token>": tokens.access_token })
    return codeOf(setup, recordedCode("contact-channels/06-verify-check-code"), email)
  })

const cases: Readonly<Record<string, { readonly magicLink: boolean; readonly prepare: Prepare }>> = {
  "auth/13-otp-send-sign-in-code-disabled": { magicLink: false, prepare: nothing },
  "auth/14-otp-send-sign-in-code": { magicLink: true, prepare: nothing },
  "auth/15-otp-sign-in": {
    magicLink: true,
    prepare: (setup) =>
      Effect.gen(function* () {
        yield* setup.replay("auth/14-otp-send-sign-in-code")
        return codeOf(setup, recordedCode("auth/15-otp-sign-in"))
      })
  },
  "auth/16-otp-sign-in-bad-code": { magicLink: true, prepare: nothing },
  "auth/23-password-update-wrong-old-password": { magicLink: false, prepare: (setup) => signedIn(setup) },
  "auth/24-password-update": { magicLink: false, prepare: (setup) => signedIn(setup) },
  "auth/25-password-send-reset-code": {
    magicLink: false,
    prepare: (setup) => Effect.as(setup.signUp((load("auth/25-password-send-reset-code").request.body as { email: string }).email), {})
  },
  "auth/26-password-send-reset-code-unknown-email": { magicLink: false, prepare: nothing },
  "auth/27-password-reset-check-code": { magicLink: false, prepare: resetCode },
  "auth/28-password-reset": { magicLink: false, prepare: resetCode },
  "auth/29-password-reset-code-reused": {
    magicLink: false,
    prepare: (setup) =>
      Effect.gen(function* () {
        const substitutions = yield* resetCode(setup)
        yield* setup.replay("auth/28-password-reset", substitutions)
        return substitutions
      })
  },
  "auth/30-password-sign-in-after-reset": {
    magicLink: false,
    prepare: (setup) =>
      Effect.gen(function* () {
        const substitutions = yield* resetCode(setup)
        const reset = yield* setup.replay("auth/28-password-reset", substitutions)
        expect(reset.status).toBe(200)
        return {}
      })
  },
  "contact-channels/05-send-verification-code-by-email": {
    magicLink: false,
    prepare: (setup) => signedIn(setup, (load("contact-channels/05-send-verification-code-by-email").request.body as { email: string }).email)
  },
  "contact-channels/06-verify-check-code": { magicLink: false, prepare: verificationCode },
  "contact-channels/07-verify": { magicLink: false, prepare: verificationCode },
  "contact-channels/08-verify-code-reused": {
    magicLink: false,
    prepare: (setup) =>
      Effect.gen(function* () {
        const substitutions = yield* verificationCode(setup)
        yield* setup.replay("contact-channels/07-verify", substitutions)
        return substitutions
      })
  },
  "contact-channels/09-verify-bad-code": { magicLink: false, prepare: nothing }
}

describe("conformance of the password, verification and magic-link flows with the wire samples", () => {
  for (const [name, { magicLink, prepare }] of Object.entries(cases)) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(sampleInstant)
        const { emulator, project, replay } = yield* makeSampleBench({ magicLinkEnabled: magicLink })
        const setup: Setup = {
          emulator,
          project,
          signUp: (email) => passwordSession(emulator, project, "sign-up", { email, password: samplePassword }),
          replay
        }
        const substitutions = yield* prepare(setup)
        const answer = yield* replay(name, substitutions)
        expect(compare(load(name).response, answer)).toEqual([])
      }))
  }

  it.effect("auth/24: the session of the refresh-token header survives, the others are revoked", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ projects: [{ id: projectId, publishableClientKey, requiresPublishableClientKey: true }] })
      const project = emulator.credentials(projectId)!
      const signIn = () =>
        send(emulator, {
          method: "POST",
          path: "/api/v1/auth/password/sign-up",
          headers: clientHeaders(project),
          body: { email: sampleEmail, password: samplePassword }
        })
      const tokens = (yield* signIn()).json
      const other = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: clientHeaders(project),
        body: { email: sampleEmail, password: samplePassword }
      })
      expect(other.status).toBe(200)
      const answer = yield* replaySample(emulator, load("auth/24-password-update"), {
        "<publishable-client-key>": project.publishableClientKey,
        "<access-token>": tokens.access_token,
        "<refresh-token>": tokens.refresh_token
      })
      expect(answer.status).toBe(200)
      const sessions = [...emulator.state.projects.get(projectId)!.sessions.values()]
      expect(sessions.map((s) => s.refreshToken)).toEqual([tokens.refresh_token])
    }))
})
