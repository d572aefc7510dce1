/**
 * Support for the conformance tests (`conformance*.test.ts`): the recorded wire samples
 * (test/fixtures/wire-samples/), the samples' project, replaying a sample's request against an
 * emulator with placeholders replaced by live values, and holding an answer against the recorded
 * response (status, `x-stack-*` headers, content type, the body's shape).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import type { Emulator, ProjectCredentials } from "../../src/emulator/Emulator.js"
import type { ProjectConfig } from "../../src/emulator/State.js"
import type { Answer } from "./helpers.js"
import { clientHeaders, makeEmulator, send } from "./helpers.js"

// ---------------------------------------------------------------------------------------------
// Samples
// ---------------------------------------------------------------------------------------------

/** The folder of the recorded wire samples. */
export const samplesRoot = new URL("../fixtures/wire-samples/", import.meta.url).pathname

/** One recorded exchange, as stored in `<folder>/<name>.json`. */
export interface Sample {
  readonly title: string
  readonly notes?: string
  readonly request: {
    readonly method: string
    readonly path: string
    readonly headers: Readonly<Record<string, string>>
    readonly body: unknown
  }
  readonly response: {
    readonly status: number
    readonly headers: Readonly<Record<string, string>>
    readonly body: unknown
  }
}

/** Reads a sample by name, e.g. `auth/01-password-sign-up`. */
export const load = (name: string): Sample => JSON.parse(readFileSync(join(samplesRoot, `${name}.json`), "utf8")) as Sample

/** The recorded project's id (a header of every authenticated sample). */
export const projectId = load("health/02-welcome-client-auth").request.headers["X-Stack-Project-Id"]!

/** The recorded project's publishable key (verbatim in form bodies). */
export const publishableClientKey = new URLSearchParams(load("auth/07-oauth-token-refresh").request.body as string).get("client_secret")!

/** The password the samples' users sign up with. */
export const samplePassword = (load("auth/01-password-sign-up").request.body as { password: string }).password

/** The e-mail of the samples' password user. */
export const sampleEmail = (load("auth/01-password-sign-up").request.body as { email: string }).email

/** The instant the conformance tests set the test clock to before replaying a sample. */
export const sampleInstant = 1_795_317_595_345

/** A project as the samples name it: its id and publishable key. */
export interface SampleProject {
  readonly id: string
  readonly publishableClientKey: string
}

/**
 * A fresh emulator seeded with the samples' project ("SDK Test Project", client requests must carry
 * the publishable key), with the given config switches (the defaults when omitted).
 */
export const makeSampleEmulator = (
  config?: Partial<ProjectConfig>,
  project: SampleProject = { id: projectId, publishableClientKey }
) =>
  makeEmulator({
    projects: [
      {
        id: project.id,
        displayName: "SDK Test Project",
        publishableClientKey: project.publishableClientKey,
        requiresPublishableClientKey: true,
        ...(config === undefined ? {} : { config })
      }
    ]
  })

// ---------------------------------------------------------------------------------------------
// Replay
// ---------------------------------------------------------------------------------------------

/** Placeholder (`<access-token>`…) or recorded value → live value. */
export type Substitutions = Readonly<Record<string, string>>

/** The tokens of a password sign-up or sign-in. */
export interface Tokens {
  readonly access_token: string
  readonly refresh_token: string
  readonly user_id: string
}

/** Replaces every occurrence of each key of `substitutions` in `text` with its value. */
const substitute = (text: string, substitutions: Substitutions): string =>
  Object.entries(substitutions).reduce((result, [from, to]) => result.split(from).join(to), text)

/** {@link substitute} applied to every string inside a JSON value (not to object keys). */
const substituteDeep = (value: unknown, substitutions: Substitutions): unknown =>
  typeof value === "string"
    ? substitute(value, substitutions)
    : Array.isArray(value)
    ? value.map((item) => substituteDeep(item, substitutions))
    : typeof value === "object" && value !== null
    ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteDeep(item, substitutions)]))
    : value

/** The placeholders of a project's keys, as the samples write them, → the live keys. */
export const placeholderKeys = (project: ProjectCredentials): Substitutions => ({
  "<publishable-client-key>": project.publishableClientKey,
  "<secret-server-key>": project.secretServerKey,
  "<super-secret-admin-key>": project.superSecretAdminKey
})

/** A session's tokens as the samples' `<access-token>` / `<refresh-token>` placeholders. */
export const tokenSubstitutions = (tokens: Pick<Tokens, "access_token" | "refresh_token">): Substitutions => ({
  "<access-token>": tokens.access_token,
  "<refresh-token>": tokens.refresh_token
})

/**
 * Sends a sample's request to an emulator, with `substitutions` applied to the header values, the
 * path and the body (a string body — a form — is sent raw, a JSON body as JSON, a null body not at
 * all). `headers` are sent besides the recorded ones (e.g. a cookie the samples do not list).
 */
export const replaySample = (
  emulator: Emulator,
  sample: Sample,
  substitutions: Substitutions,
  headers: Readonly<Record<string, string>> = {}
): Effect.Effect<Answer> => {
  const sent: Record<string, string> = { ...headers }
  for (const [name, value] of Object.entries(sample.request.headers)) sent[name] = substitute(value, substitutions)
  const body = sample.request.body
  return send(emulator, {
    method: sample.request.method,
    path: substitute(sample.request.path, substitutions),
    headers: sent,
    ...(typeof body === "string"
      ? { raw: substitute(body, substitutions) }
      : body === null
      ? {}
      : { body: substituteDeep(body, substitutions) })
  })
}

/** An emulator seeded with the samples' project, ready to replay samples. */
export interface SampleBench {
  readonly emulator: Emulator
  /** The live credentials of the samples' project. */
  readonly project: ProjectCredentials
  /** Replays a sample with the key placeholders ({@link placeholderKeys}) and `substitutions` applied. */
  readonly replay: (name: string, substitutions?: Substitutions) => Effect.Effect<Answer>
}

/** {@link makeSampleEmulator} with the samples' project, its credentials and a replay of any sample. */
export const makeSampleBench = (config?: Partial<ProjectConfig>): Effect.Effect<SampleBench> =>
  Effect.map(makeSampleEmulator(config), (emulator) => {
    const project = emulator.credentials(projectId)!
    const keys = placeholderKeys(project)
    return {
      emulator,
      project,
      replay: (name, substitutions = {}) => replaySample(emulator, load(name), { ...keys, ...substitutions })
    }
  })

/**
 * Signs up or in with a password on a project (client access), asserting the 200; returns the
 * tokens.
 */
export const passwordSession = (
  emulator: Emulator,
  project: Pick<ProjectCredentials, "projectId" | "publishableClientKey">,
  route: "sign-up" | "sign-in",
  body: { readonly email: string; readonly password: string }
): Effect.Effect<Tokens> =>
  Effect.gen(function* () {
    const answer = yield* send(emulator, {
      method: "POST",
      path: `/api/v1/auth/password/${route}`,
      headers: clientHeaders(project),
      body
    })
    expect(answer.status).toBe(200)
    return answer.json as Tokens
  })

// ---------------------------------------------------------------------------------------------
// Comparison
// ---------------------------------------------------------------------------------------------

const kind = (value: unknown): string => value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "object" ? "object" : typeof value

/**
 * Differences in shape between a recorded JSON body and a live one: key sets and value types,
 * recursively; array elements pairwise (extra ones against the first recorded one), an empty array
 * against an empty one. Values themselves are not compared.
 */
export const shapeDifferences = (expected: unknown, actual: unknown, path = "body"): ReadonlyArray<string> => {
  const expectedKind = kind(expected)
  const actualKind = kind(actual)
  if (expectedKind !== actualKind) return [`${path}: expected ${expectedKind}, got ${actualKind} (${JSON.stringify(actual)})`]
  if (expectedKind === "object") {
    const e = expected as Record<string, unknown>
    const a = actual as Record<string, unknown>
    return [
      ...Object.keys(e).filter((key) => !(key in a)).map((key) => `${path}.${key}: missing`),
      ...Object.keys(a).filter((key) => !(key in e)).map((key) => `${path}.${key}: not in the sample`),
      ...Object.keys(e).filter((key) => key in a).flatMap((key) => shapeDifferences(e[key], a[key], `${path}.${key}`))
    ]
  }
  if (expectedKind === "array") {
    const e = expected as ReadonlyArray<unknown>
    const a = actual as ReadonlyArray<unknown>
    if ((e.length === 0) !== (a.length === 0)) return [`${path}: expected ${e.length} items, got ${a.length}`]
    return a.flatMap((item, index) => shapeDifferences(e[Math.min(index, e.length - 1)], item, `${path}[${index}]`))
  }
  return []
}

/** How a body that is not JSON is held against the recorded one; answers the problems. */
export type TextCheck = (recorded: Sample["response"], answer: Answer) => ReadonlyArray<string>

/** A recorded text body must come back verbatim; no recorded body (and no content type) means an empty answer. */
export const sameText: TextCheck = (recorded, answer) => {
  if (typeof recorded.body === "string") {
    return answer.text === recorded.body ? [] : [`body: expected ${JSON.stringify(recorded.body)}, got ${JSON.stringify(answer.text)}`]
  }
  if (recorded.body === null && recorded.headers["content-type"] === undefined && answer.text !== "") {
    return [`body: expected none, got ${answer.text.slice(0, 100)}`]
  }
  return []
}

/** A recorded text body needs some text back, whatever it says; an absent body is not checked. */
export const anyText: TextCheck = (recorded, answer) => typeof recorded.body === "string" && answer.text.length === 0 ? ["body: expected text"] : []

/** What {@link compare} holds an answer to besides status, known-error headers, content type and JSON shape. */
export interface Expectations {
  /** Headers that must be present iff recorded, whatever their value (e.g. `location`). Default: none. */
  readonly presentIff?: ReadonlyArray<string>
  /** How a body that is not JSON is checked. Default: {@link sameText}. */
  readonly text?: TextCheck
}

const mediaType = (contentType: string | null | undefined): string | undefined => contentType?.split(";")[0]?.trim()

/**
 * The problems of an answer against a recorded response (none: it conforms). Checked: the status;
 * `x-stack-known-error` and `x-stack-actual-status` (present iff recorded, same value); the headers
 * of `presentIff` (present iff recorded); that `x-stack-request-id` is there; the media type when
 * one is recorded; a JSON body's {@link shapeDifferences}, any other body by `text`.
 */
export const compare = (recorded: Sample["response"], answer: Answer, expectations: Expectations = {}): ReadonlyArray<string> => {
  const { presentIff = [], text = sameText } = expectations
  const problems: Array<string> = []
  if (answer.status !== recorded.status) problems.push(`status: expected ${recorded.status}, got ${answer.status} (${answer.text.slice(0, 300)})`)
  for (const name of ["x-stack-known-error", "x-stack-actual-status", ...presentIff]) {
    const expected = recorded.headers[name]
    const actual = answer.headers.get(name) ?? undefined
    if (presentIff.includes(name) ? (expected === undefined) !== (actual === undefined) : expected !== actual) {
      problems.push(`${name}: expected ${expected}, got ${actual}`)
    }
  }
  if (answer.headers.get("x-stack-request-id") === null) problems.push("x-stack-request-id: missing")
  const expectedType = mediaType(recorded.headers["content-type"])
  const actualType = mediaType(answer.headers.get("content-type"))
  if (expectedType !== undefined && expectedType !== actualType) problems.push(`content-type: expected ${expectedType}, got ${actualType}`)
  if (expectedType === "application/json") problems.push(...shapeDifferences(recorded.body, answer.json))
  else problems.push(...text(recorded, answer))
  return problems
}
