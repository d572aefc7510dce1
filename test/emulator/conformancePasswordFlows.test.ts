/**
 * Conformance of the password, e-mail verification and magic-link routes with the recorded
 * wire samples (auth/13–16, 23–30, contact-channels/05–09), in the manner of conformance.test.ts:
 * each sample is replayed against a fresh emulator seeded with the samples' project, after the
 * setup it needs; placeholders and recorded codes are replaced by live values; compared: status,
 * `x-stack-known-error`, content type, and the body's shape (key sets, value types).
 *
 * conformance.test.ts exports none of its helpers (and must not be edited), so the few it needs
 * are restated here. contact-channels/04 (send a code for a channel by id) belongs to the
 * contact-channel routes, not covered here.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect, TestClock } from "effect"
import type { Emulator, ProjectCredentials } from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import { makeEmulator, send } from "./helpers.js"

const samplesRoot = new URL("../../../shared/wire-samples/", import.meta.url).pathname

interface Sample {
  readonly title: string
  readonly request: { readonly method: string; readonly path: string; readonly headers: Readonly<Record<string, string>>; readonly body: unknown }
  readonly response: { readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: unknown }
}

const load = (name: string): Sample => JSON.parse(readFileSync(join(samplesRoot, `${name}.json`), "utf8")) as Sample

const projectId = load("health/02-welcome-client-auth").request.headers["X-Stack-Project-Id"]!
const publishableClientKey = new URLSearchParams(load("auth/07-oauth-token-refresh").request.body as string).get("client_secret")!
const samplePassword = (load("auth/01-password-sign-up").request.body as { password: string }).password
const sampleEmail = (load("auth/01-password-sign-up").request.body as { email: string }).email

const kind = (value: unknown): string =>
  value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value

const shapeDifferences = (expected: unknown, actual: unknown, path = "body"): ReadonlyArray<string> => {
  if (kind(expected) !== kind(actual)) return [`${path}: expected ${kind(expected)}, got ${kind(actual)} (${JSON.stringify(actual)})`]
  if (kind(expected) === "object") {
    const e = expected as Record<string, unknown>
    const a = actual as Record<string, unknown>
    return [
      ...Object.keys(e).filter((key) => !(key in a)).map((key) => `${path}.${key}: missing`),
      ...Object.keys(a).filter((key) => !(key in e)).map((key) => `${path}.${key}: not in the sample`),
      ...Object.keys(e).filter((key) => key in a).flatMap((key) => shapeDifferences(e[key], a[key], `${path}.${key}`))
    ]
  }
  return []
}

const mediaType = (contentType: string | null | undefined) => contentType?.split(";")[0]?.trim()

const compare = (sample: Sample["response"], answer: Answer): ReadonlyArray<string> => {
  const problems: Array<string> = []
  if (answer.status !== sample.status) problems.push(`status: expected ${sample.status}, got ${answer.status} (${answer.text.slice(0, 300)})`)
  for (const name of ["x-stack-known-error", "x-stack-actual-status"]) {
    if (sample.headers[name] !== (answer.headers.get(name) ?? undefined)) {
      problems.push(`${name}: expected ${sample.headers[name]}, got ${answer.headers.get(name)}`)
    }
  }
  if (answer.headers.get("x-stack-request-id") === null) problems.push("x-stack-request-id: missing")
  const expectedType = mediaType(sample.headers["content-type"])
  if (expectedType !== mediaType(answer.headers.get("content-type"))) {
    problems.push(`content-type: expected ${expectedType}, got ${answer.headers.get("content-type")}`)
  }
  if (expectedType === "application/json") problems.push(...shapeDifferences(sample.body, answer.json))
  else if (typeof sample.body === "string" && answer.text !== sample.body) problems.push(`body: expected "${sample.body}", got "${answer.text}"`)
  return problems
}

const substitute = (text: string, substitutions: Readonly<Record<string, string>>): string =>
  Object.entries(substitutions).reduce((result, [from, to]) => result.split(from).join(to), text)

const replay = (emulator: Emulator, sample: Sample, substitutions: Readonly<Record<string, string>>): Effect.Effect<Answer> => {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(sample.request.headers)) headers[name] = substitute(value, substitutions)
  const body = sample.request.body === null ? undefined : JSON.parse(substitute(JSON.stringify(sample.request.body), substitutions))
  return send(emulator, { method: sample.request.method, path: substitute(sample.request.path, substitutions), headers, body })
}

interface Setup {
  readonly emulator: Emulator
  readonly project: ProjectCredentials
  readonly keys: Readonly<Record<string, string>>
  readonly signUp: (email: string, extra?: Readonly<Record<string, unknown>>) => Effect.Effect<{ access_token: string; refresh_token: string }>
  readonly replay: (name: string, substitutions?: Readonly<Record<string, string>>) => Effect.Effect<Answer>
}

type Prepare = (setup: Setup) => Effect.Effect<Readonly<Record<string, string>>>

const nothing: Prepare = () => Effect.succeed({})

/** The latest e-mailed code replaces the sample's recorded code. */
const codeOf = (setup: Setup, sampleCode: string, email?: string) => {
  const entry = setup.emulator.latestEmail({ projectId, ...(email !== undefined ? { email } : {}) })
  return { [sampleCode]: entry!.code! }
}

const recordedCode = (name: string) => (load(name).request.body as { code: string }).code

const signedIn = (setup: Setup, email = sampleEmail) =>
  Effect.map(setup.signUp(email), (tokens) => ({ "<access-token>": tokens.access_token, "<refresh-token>": tokens.refresh_token }))

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
        yield* TestClock.setTime(1_795_317_595_345)
        const emulator = yield* makeEmulator({
          projects: [
            {
              id: projectId,
              displayName: "SDK Test Project",
              publishableClientKey,
              requiresPublishableClientKey: true,
              config: { magicLinkEnabled: magicLink }
            }
          ]
        })
        const project = emulator.credentials(projectId)!
        const keys = { "<publishable-client-key>": project.publishableClientKey }
        const setup: Setup = {
          emulator,
          project,
          keys,
          signUp: (email, extra = {}) =>
            Effect.gen(function* () {
              const answer = yield* send(emulator, {
                method: "POST",
                path: "/api/v1/auth/password/sign-up",
                headers: {
                  "x-stack-project-id": projectId,
                  "x-stack-access-type": "client",
                  "x-stack-publishable-client-key": project.publishableClientKey
                },
                body: { email, password: samplePassword, ...extra }
              })
              expect(answer.status).toBe(200)
              return answer.json
            }),
          replay: (other, substitutions = {}) => replay(emulator, load(other), { ...keys, ...substitutions })
        }
        const sample = load(name)
        const substitutions = yield* prepare(setup)
        const answer = yield* replay(emulator, sample, { ...keys, ...substitutions })
        expect(compare(sample.response, answer)).toEqual([])
      })
    )
  }

  it.effect("auth/24: the session of the refresh-token header survives, the others are revoked", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ projects: [{ id: projectId, publishableClientKey, requiresPublishableClientKey: true }] })
      const project = emulator.credentials(projectId)!
      const signIn = () =>
        send(emulator, {
          method: "POST",
          path: "/api/v1/auth/password/sign-up",
          headers: { "x-stack-project-id": projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": project.publishableClientKey },
          body: { email: sampleEmail, password: samplePassword }
        })
      const tokens = (yield* signIn()).json
      const other = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/password/sign-in",
        headers: { "x-stack-project-id": projectId, "x-stack-access-type": "client", "x-stack-publishable-client-key": project.publishableClientKey },
        body: { email: sampleEmail, password: samplePassword }
      })
      expect(other.status).toBe(200)
      const answer = yield* replay(emulator, load("auth/24-password-update"), {
        "<publishable-client-key>": project.publishableClientKey,
        "<access-token>": tokens.access_token,
        "<refresh-token>": tokens.refresh_token
      })
      expect(answer.status).toBe(200)
      const sessions = [...emulator.state.projects.get(projectId)!.sessions.values()]
      expect(sessions.map((s) => s.refreshToken)).toEqual([tokens.refresh_token])
    })
  )
})
