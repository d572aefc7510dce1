/**
 * Every error text the emulator writes, held byte for byte against the service's: one row of
 * `errorTexts.json` per text — the request that makes the emulator write it, the emulator's text
 * before this table (`before`), the service's text (`text`) and where the service's text comes
 * from (`source`: a file and line of stack-auth/stack-auth at commit 2f719903, and/or the recorded
 * sample of test/fixtures/wire-samples/ in `fixture`). Each row runs on a fresh emulator served
 * over real HTTP (`serve`): the users it names are signed up first (`<name>@example.com`), then
 * the request is sent and the answer's status, known-error code and text are compared with the
 * row. A row taken from a recorded sample is also held against the sample: its status and its
 * text, the row's placeholders (`{ada}`, `{project}`, …) standing for the recorded ids.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { defaults } from "../../src/emulator/Defaults.js"
import { serve } from "../../src/emulator/server.js"
import type { ProjectConfig } from "../../src/emulator/State.js"
import { load } from "./conformanceSupport.js"
import { makeEmulator } from "./helpers.js"

/** One row of the table. */
interface Row {
  readonly name: string
  /** Where the service's text comes from: `apps/backend/…:line` at 2f719903 (and yup 1.7.1 for its texts). */
  readonly source: string
  /** The recorded sample holding the same text, e.g. `users/25-get-invalid-uuid`. */
  readonly fixture?: string
  /** Project switches of the row's project. */
  readonly config?: Partial<ProjectConfig>
  /** Users signed up first with a password (`ada` → `ada@example.com`), in order. */
  readonly users?: ReadonlyArray<string>
  /** Requests sent before the row's; the text fields of their JSON answers become placeholders (`{login_code}`, `{items.0.id}`). */
  readonly prepare?: ReadonlyArray<Request>
  readonly request: Request
  readonly status: number
  /** The known-error code (`x-stack-known-error` and the body's `code`); absent for a text answer. */
  readonly code?: string
  /** The emulator's text before this table (equal to `text` where it already was the service's). */
  readonly before: string
  /** The service's text, which the emulator now writes. */
  readonly text: string
}

/** A request of a row. */
interface Request {
  readonly method?: string
  /** Path below the server's origin; `{ada}`, `{project}`… are replaced. */
  readonly path: string
  /** Project access sent with the project's key; none when absent. */
  readonly access?: "client" | "server" | "admin"
  /** `internal`: the access is to the emulator's internal project (whose seeded owner owns the row's project). */
  readonly project?: "internal"
  /** The signed-up user whose access token is sent. */
  readonly as?: string
  readonly headers?: Readonly<Record<string, string>>
  /** A JSON body. */
  readonly body?: unknown
  /** A form body (`application/x-www-form-urlencoded`). */
  readonly form?: Readonly<Record<string, string>>
}

const rows = JSON.parse(readFileSync(new URL("./errorTexts.json", import.meta.url), "utf8")) as ReadonlyArray<Row>

const projectId = "5b0f4c1e-7a43-4c55-9a07-2d1e0c6b8f31"
const password = "correct horse battery"

/** Replaces every `{key}` of `values` in the strings of a JSON value. */
const fill = <A>(value: A, values: Readonly<Record<string, string>>): A => {
  if (typeof value === "string") {
    return Object.entries(values).reduce((text, [key, to]) => text.split(`{${key}}`).join(to), value as string) as A
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, values)) as A
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fill(item, values)])) as A
  }
  return value
}

/** What an answer says: the known error's code and message, or the text body. */
interface Said {
  readonly status: number
  readonly code: string | undefined
  readonly text: string
}

const said = (status: number, knownError: string | null, body: string): Said => {
  if (knownError === null) return { status, code: undefined, text: body }
  const json = JSON.parse(body) as { readonly code: string; readonly error: string; readonly details?: { readonly message?: string } }
  // a SCHEMA_ERROR carries its message twice (`details.message` and `error`)
  if (json.code === "SCHEMA_ERROR" && json.details?.message !== json.error) return { status, code: json.code, text: "details.message differs" }
  return { status, code: json.code === knownError ? json.code : `${knownError} / ${json.code}`, text: json.error }
}

/** Runs a row's request on a fresh emulator served over HTTP; what the answer says, and the row's text with its placeholders filled. */
const run = (row: Row): Effect.Effect<{ readonly answer: Said; readonly text: string }> =>
  Effect.scoped(
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({
        projects: [{
          id: projectId,
          displayName: "Texts",
          ownerUserIds: [defaults.internalOwner.userId],
          ...(row.config === undefined ? {} : { config: row.config })
        }]
      })
      const server = yield* serve({ port: 0, emulator }).pipe(Effect.orDie)
      const headersOf = (access: "client" | "server" | "admin", project?: "internal"): Record<string, string> => {
        const keys = project === "internal" ? emulator.internal : emulator.credentials(projectId)!
        return {
          "x-stack-project-id": keys.projectId,
          "x-stack-access-type": access,
          ...(access === "client"
            ? { "x-stack-publishable-client-key": keys.publishableClientKey }
            : access === "server"
            ? { "x-stack-secret-server-key": keys.secretServerKey }
            : { "x-stack-super-secret-admin-key": keys.superSecretAdminKey })
        }
      }
      const values: Record<string, string> = {
        project: projectId,
        pck: emulator.credentials(projectId)!.publishableClientKey,
        base: server.baseUrl,
        "owner.email": defaults.internalOwner.email,
        "owner.password": defaults.internalOwner.password
      }
      const tokens: Record<string, string> = {}
      for (const user of row.users ?? []) {
        const answer = yield* Effect.promise(() =>
          fetch(`${server.baseUrl}/api/v1/auth/password/sign-up`, {
            method: "POST",
            headers: { ...headersOf("client"), "content-type": "application/json" },
            body: JSON.stringify({ email: `${user}@example.com`, password })
          }).then((response) => response.json() as Promise<{ readonly user_id: string; readonly access_token: string }>)
        )
        values[user] = answer.user_id
        tokens[user] = answer.access_token
      }
      const sendRequest = (template: Request) => {
        const request = fill(template, values)
        const headers: Record<string, string> = {
          ...(request.access === undefined ? {} : headersOf(request.access, request.project)),
          ...(request.as === undefined ? {} : { "x-stack-access-token": tokens[request.as]! }),
          ...(request.body === undefined ? {} : { "content-type": "application/json" }),
          ...(request.form === undefined ? {} : { "content-type": "application/x-www-form-urlencoded" }),
          ...request.headers
        }
        const body = request.body !== undefined
          ? JSON.stringify(request.body)
          : request.form !== undefined
          ? new URLSearchParams(request.form).toString()
          : undefined
        return Effect.promise(() =>
          fetch(`${server.baseUrl}${request.path}`, { method: request.method ?? "GET", headers, ...(body === undefined ? {} : { body }) })
        )
      }
      for (const step of row.prepare ?? []) {
        const prepared = yield* sendRequest(step)
        const answer = (yield* Effect.promise(() => prepared.json())) as Record<string, unknown>
        const collect = (value: unknown, key: string): void => {
          if (typeof value === "string") values[key] = value
          else if (typeof value === "object" && value !== null) {
            for (const [inner, item] of Object.entries(value)) collect(item, key === "" ? inner : `${key}.${inner}`)
          }
        }
        collect(answer, "")
      }
      const response = yield* sendRequest(row.request)
      const body = yield* Effect.promise(() => response.text())
      return { answer: said(response.status, response.headers.get("x-stack-known-error"), body), text: fill(row.text, values) }
    })
  )

/** The row's text as a pattern over a recorded text: each placeholder stands for one recorded value. */
const patternOf = (text: string): RegExp =>
  new RegExp(`^${text.split(/\{(?:ada|bob|project|base)\}/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[^\\s\"']+?")}$`)

describe("error texts of the emulator (errorTexts.json)", () => {
  it("names a source for every row and one row per text and code path", () => {
    expect(rows.filter((row) => !/(apps\/backend|packages\/stack-shared|yup)\S*/.test(row.source) && row.fixture === undefined).map((row) => row.name))
      .toEqual([])
    const names = rows.map((row) => row.name)
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([])
    const texts = rows.map((row) => `${row.request.method ?? "GET"} ${row.request.path} ${row.text}`)
    expect(texts.filter((text, index) => texts.indexOf(text) !== index)).toEqual([])
  })

  it("holds every row taken from a recorded sample against the sample", () => {
    const differing = rows.flatMap((row) => {
      if (row.fixture === undefined) return []
      const recorded = load(row.fixture).response
      const body = recorded.body as { readonly error?: unknown } | string
      const text = typeof body === "string" ? body : String(body.error)
      return recorded.status === row.status && patternOf(row.text).test(text) ? [] : [{ row: row.name, recorded: [recorded.status, text] }]
    })
    expect(differing).toEqual([])
  })

  it.live("answers every row's request with the service's status, code and text, byte for byte", () =>
    Effect.gen(function* () {
      const differing: Array<unknown> = []
      for (const row of rows) {
        const { answer, text } = yield* run(row)
        const expected: Said = { status: row.status, code: row.code, text }
        if (JSON.stringify(answer) !== JSON.stringify(expected)) differing.push({ row: row.name, expected, answer })
      }
      expect(differing).toEqual([])
      expect(rows.length).toBeGreaterThan(40)
    }), 120_000)
})
