/**
 * Emulator robustness (issue 7):
 * 1. random and malformed requests (random methods and paths, bad JSON, wrong types, unknown keys,
 *    huge bodies, wrong content types, missing / wrong / garbage headers) against the in-process
 *    emulator → never a 5xx, never a crash; every 4xx is a known error (header = body code, JSON
 *    envelope) or a plain-text answer; the override header turns 4xx into 200 + actual status;
 * 2. a model-based test: random sequences of user, session, team, membership, permission and
 *    contact-channel and user-API-key operations against the emulator and a small model, checking
 *    the answers and the invariants (e-mails used for auth unique, no orphan memberships,
 *    permissions only for members, no session of a deleted user, and — the user-deletion cascade —
 *    a deleted user's id appears nowhere in the emulator's state and its API keys no longer pass
 *    `/user-api-keys/check`).
 */
import { Arbitrary, Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import type * as Endpoint from "../../src/core/Endpoint.js"
import { fillPath, matchPath } from "../../src/core/Endpoint.js"
import type * as Emulator from "../../src/emulator/Emulator.js"
import { allRoutes } from "../../src/emulator/routes/index.js"
import type { Answer } from "../emulator/helpers.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "../emulator/helpers.js"
import { userReferences } from "../emulator/userReferences.js"
import * as fc from "./arbitraries.js"
import { count, timeout, watchUnhandledRejections } from "./support.js"

const unhandled = watchUnhandledRejections()

const fuzzRuns = count(500, 10_000)
const modelRuns = count(12, 80)
const modelSteps = count(25, 40)

// ---------------------------------------------------------------------------------------------
// 1. Fuzzing

const noOverride = allRoutes.filter((route) => route.options.overrideErrorStatus === false).map((route) => route.endpoint)

/** What is wrong with an answer, or undefined when it is acceptable. */
/** The path the emulator sees (the URL parser normalises `..` and the like). */
const pathnameOf = (path: string): string => new URL(`http://localhost${path}`).pathname

const problemOf = (answer: Answer, overrideAsked: boolean, method: string, path: string): string | undefined => {
  // browser-facing routes and the OAuth token endpoint ignore the override header on purpose
  if (noOverride.some((endpoint) => endpoint.method === method && matchPath(`/api/v1${endpoint.path}`, pathnameOf(path)) !== undefined)) {
    overrideAsked = false
  }
  const actualHeader = answer.headers.get("x-stack-actual-status")
  const status = actualHeader === null ? answer.status : Number(actualHeader)
  if (answer.status >= 500 || status >= 500) return `status ${answer.status}: ${answer.text.slice(0, 300)}`
  if (actualHeader !== null && (answer.status !== 200 || !overrideAsked || status < 400 || status > 499)) {
    return `x-stack-actual-status ${actualHeader} on a ${answer.status} (override asked: ${overrideAsked})`
  }
  if (overrideAsked && answer.status >= 400 && answer.status <= 499) return `a ${answer.status} under x-stack-override-error-status`
  if (status < 400) return undefined
  const code = answer.headers.get("x-stack-known-error")
  const contentType = answer.headers.get("content-type") ?? ""
  if (code !== null) {
    if (!contentType.startsWith("application/json")) return `known error ${code} with content type ${contentType}`
    if (typeof answer.json !== "object" || answer.json === null) return `known error ${code} without a JSON body`
    if (answer.json.code !== code) return `known-error header ${code} but body code ${String(answer.json.code)}`
    if (typeof answer.json.error !== "string") return `known error ${code} without an error message`
    return undefined
  }
  // a wrong method on an existing path: 405 with an empty body, as the recorded service answers
  if (status === 405 && answer.text === "") return undefined
  // the OAuth token endpoint passes plain OAuth errors through (PROTOCOL.md §2.1)
  if (
    pathnameOf(path) === "/api/v1/auth/oauth/token" &&
    contentType.startsWith("application/json") &&
    typeof answer.json?.error === "string"
  ) {
    return undefined
  }
  if (!contentType.startsWith("text/plain")) return `a ${status} without known-error header, content type ${contentType}: ${answer.text.slice(0, 200)}`
  return undefined
}

const routeEndpoints: ReadonlyArray<Endpoint.Any> = allRoutes.map((route) => route.endpoint)
const printable = fc.stringMatching(/^[\x20-\x7e]{0,30}$/)
const json = fc.jsonValue({ maxDepth: 3 })

const payloadCache = new Map<Endpoint.Any, Arbitrary.Arbitrary<unknown>>()
/** Bodies close to valid: the payload schema's wire side (or any JSON). */
const nearValidPayload = (endpoint: Endpoint.Any): Arbitrary.Arbitrary<unknown> => {
  const cached = payloadCache.get(endpoint)
  if (cached !== undefined) return cached
  let arbitrary: Arbitrary.Arbitrary<unknown> = json
  if (endpoint.payload !== undefined) {
    try {
      arbitrary = Arbitrary.schema(Schema.toEncoded(endpoint.payload as Schema.Codec<unknown, unknown>))
      Effect.runSync(fc.sample(arbitrary, 1))
    } catch {
      arbitrary = json
    }
  }
  payloadCache.set(endpoint, arbitrary)
  return arbitrary
}

interface Fixture {
  readonly emulator: Emulator.Emulator
  readonly userId: string
  readonly accessToken: string
  readonly refreshToken: string
}

const paramValue = (fixture: Fixture) =>
  fc.oneof(
    fc.constant(fixture.userId),
    fc.constant("me"),
    fc.uuid(),
    printable,
    fc.constant("internal"),
    fc.constant(fixture.emulator.demo.projectId),
    fc.constant("x".repeat(3000)),
    fc.constant("%E0%A4%A"),
    fc.constant("..")
  )

const methods = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND") }
)

/** A path: a route's pattern filled with random values, or random segments. */
const paths = (fixture: Fixture) =>
  fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(...routeEndpoints).pipe(fc.chain((endpoint) =>
        fc.record({
          values: fc.dictionary(
            fc.constantFrom(
              "user_id",
              "team_id",
              "project_id",
              "api_key_id",
              "session_id",
              "permission_id",
              "contact_channel_id",
              "provider_id",
              "provider_account_id",
              "id"
            ),
            paramValue(fixture)
          ),
          raw: fc.boolean()
        }).pipe(fc.map(({ raw, values }) => {
          const filled = raw
            ? endpoint.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => values[name] ?? "me")
            : fillPath(endpoint.path, values)
          return { endpoint: endpoint as Endpoint.Any | undefined, path: `/api/v1${filled}` }
        }))
      ))
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom("/api/v1", "/api", "", "/api/v2", "/api/v1/"),
          fc.array(fc.oneof(printable.pipe(fc.map(encodeURIComponent)), fc.constantFrom("users", "me", "teams", "auth", "..", "%zz")), { maxLength: 5 })
        )
        .pipe(fc.map(([prefix, segments]) => ({ endpoint: undefined as Endpoint.Any | undefined, path: `${prefix}/${segments.join("/")}` })))
    }
  )

const queries = fc.oneof(
  fc.constant(""),
  fc.dictionary(
    fc.constantFrom("user_id", "team_id", "limit", "cursor", "recursive", "desc", "query", "x", "permission_id", "include_anonymous"),
    fc.oneof(printable, fc.constantFrom("me", "true", "maybe", "-1", "0", "1e309"))
  ).pipe(fc.map((query) => {
    const text = new URLSearchParams(query).toString()
    return text === "" ? "" : `?${text}`
  })),
  printable.pipe(fc.map((text) => `?${text}`))
)

const headerSets = (fixture: Fixture) => {
  const demo = fixture.emulator.demo
  return fc.record({
    base: fc.constantFrom<Readonly<Record<string, string>>>(
      {},
      clientHeaders(demo),
      serverHeaders(demo),
      { "x-stack-project-id": demo.projectId, "x-stack-access-type": "admin", "x-stack-super-secret-admin-key": demo.superSecretAdminKey },
      { "x-stack-project-id": demo.projectId, "x-stack-access-type": "server", "x-stack-secret-server-key": "ssk_wrong" },
      { "x-stack-project-id": demo.projectId, "x-stack-access-type": "client" },
      { "x-stack-project-id": "not-a-project", "x-stack-access-type": "client" },
      { "x-stack-access-type": "client" },
      { "x-stack-publishable-client-key": demo.publishableClientKey },
      clientHeaders(demo, { "x-stack-access-token": fixture.accessToken, "x-stack-refresh-token": fixture.refreshToken }),
      clientHeaders(demo, { "x-stack-access-token": "garbage.token.here" }),
      serverHeaders(demo, { "x-stack-access-token": fixture.accessToken })
    ),
    accessType: fc.option(fc.constantFrom("client", "server", "admin", "root", "", "CLIENT"), { freq: 6 }),
    override: fc.boolean(),
    extra: fc.dictionary(fc.stringMatching(/^x-stack-[a-z-]{1,16}$/), printable, { maxKeys: 2 })
  })
}

const bodies = (endpoint: Endpoint.Any | undefined) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant({ contentType: undefined as string | undefined, text: undefined as string | undefined }) },
    {
      weight: 5,
      arbitrary: (endpoint === undefined ? json : nearValidPayload(endpoint)).pipe(fc.map((value) => ({
        contentType: "application/json",
        text: JSON.stringify(value) ?? "null"
      })))
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(endpoint === undefined ? json : nearValidPayload(endpoint), fc.stringMatching(/^[a-z_]{1,12}$/), json)
        .pipe(fc.map(([value, key, extra]) => ({
          contentType: "application/json",
          text: JSON.stringify(typeof value === "object" && value !== null && !Array.isArray(value) ? { ...value, [key]: extra } : { [key]: extra })
        })))
    },
    { weight: 2, arbitrary: json.pipe(fc.map((value) => ({ contentType: "application/json", text: JSON.stringify(value) }))) },
    {
      weight: 2,
      arbitrary: fc.constantFrom("{\"a\":", "{", "nul", "[1,2", "{\"email\": \"a@b.c\",}", "\u0000").pipe(
        fc.map((text) => ({ contentType: "application/json", text }))
      )
    },
    {
      weight: 1,
      arbitrary: fc.constant({
        contentType: "application/json",
        text: JSON.stringify({ email: `${"a".repeat(300_000)}@example.com`, password: "p".repeat(100_000), display_name: "d".repeat(50_000) })
      })
    },
    {
      weight: 1,
      arbitrary: printable.pipe(
        fc.map((text) => ({ contentType: "application/x-www-form-urlencoded", text: `a=${encodeURIComponent(text)}&grant_type=refresh_token` }))
      )
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom("application/xml", "multipart/form-data", "text/csv", "image/png", "application/json; charset=latin1", "garbage").pipe(fc.map((
        contentType
      ) => ({ contentType, text: "<x/>" })))
    },
    { weight: 1, arbitrary: printable.pipe(fc.map((text) => ({ contentType: "text/plain", text }))) }
  )

const requests = (fixture: Fixture) =>
  fc
    .record({ target: paths(fixture), query: queries, method: methods, sameMethod: fc.boolean(), headers: headerSets(fixture) })
    .pipe(fc.chain((request) => bodies(request.target.endpoint).pipe(fc.map((body) => ({ ...request, body })))))

describe("random and malformed requests against the emulator", () => {
  it(
    `${fuzzRuns} requests: never a 5xx, every 4xx a known error or plain text`,
    async () => {
      const emulator = await Effect.runPromise(makeEmulator())
      const tokens = await Effect.runPromise(signUp(emulator, emulator.demo, "fuzz@example.com"))
      const fixture: Fixture = { emulator, userId: tokens.user_id, accessToken: tokens.access_token, refreshToken: tokens.refresh_token }
      const statuses = new Map<number, number>()
      const knownCodes = new Set<string>()
      const problems: Array<string> = []
      let sent = 0
      await Effect.runPromise(fc.check(
        requests(fixture),
        ({ body, headers, method, query, sameMethod, target }) =>
          Effect.promise(async () => {
            const chosenMethod = sameMethod && target.endpoint !== undefined ? target.endpoint.method : method
            const allHeaders: Record<string, string> = { ...headers.base, ...headers.extra }
            if (headers.accessType !== null) allHeaders["x-stack-access-type"] = headers.accessType
            if (headers.override) allHeaders["x-stack-override-error-status"] = "true"
            const withBody = chosenMethod !== "GET" && chosenMethod !== "HEAD" && body.text !== undefined
            if (withBody && body.contentType !== undefined) allHeaders["content-type"] = body.contentType
            const answer = await Effect.runPromise(
              send(emulator, {
                method: chosenMethod,
                path: `${target.path}${query}`,
                headers: allHeaders,
                ...(withBody && body.text !== undefined ? { raw: body.text } : {})
              })
            )
            sent++
            const status = Number(answer.headers.get("x-stack-actual-status") ?? answer.status)
            statuses.set(status, (statuses.get(status) ?? 0) + 1)
            const code = answer.headers.get("x-stack-known-error")
            if (code !== null) knownCodes.add(code)
            const problem = problemOf(answer, headers.override, chosenMethod, target.path)
            if (problem !== undefined) {
              const line = `${chosenMethod} ${target.path.slice(0, 120)}${query.slice(0, 60)} → ${problem}`
              problems.push(line)
              throw new Error(line)
            }
            return true
          }),
        { runs: fuzzRuns }
      ))
      expect(problems).toEqual([])
      expect(sent).toBe(fuzzRuns)
      // the fuzzer reaches deep: many distinct known errors and some successes
      expect(knownCodes.size).toBeGreaterThan(10)
      expect([...statuses.keys()].some((status) => status >= 200 && status < 300)).toBe(true)
      // the emulator still works: health and a fresh sign-up
      const health = await Effect.runPromise(send(emulator, { path: "/api/v1" }))
      expect(health.status).toBe(200)
      // (the fuzzer holds the admin key, so it may have deleted the demo project: then use a new one)
      const credentials = emulator.state.projects.has(emulator.demo.projectId)
        ? emulator.demo
        : await Effect.runPromise(emulator.createProject())
      const again = await Effect.runPromise(signUp(emulator, credentials, "after-fuzz@example.com"))
      expect(again.user_id).toMatch(/^[0-9a-f-]{36}$/)
    },
    timeout(120_000, 900_000)
  )
})

// ---------------------------------------------------------------------------------------------
// 2. Model-based test

const hasTeams = allRoutes.some((route) => route.endpoint.path === "/teams" && route.endpoint.method === "POST")
const hasTeamPermissions = allRoutes.some((route) => route.endpoint.path === "/team-permissions/:team_id/:user_id/:permission_id")
const hasContactChannels = allRoutes.some((route) => route.endpoint.path === "/contact-channels" && route.endpoint.method === "POST")

const emailPool = ["ada@example.com", "bob@example.com", "cy@example.com", "dee@example.com", "eve@example.com", "fay@example.com"]
const permissionPool = ["team_member", "team_admin", "$read_members", "no_such_permission"]

type Op =
  | { readonly op: "createUser"; readonly email: number; readonly password: boolean }
  | { readonly op: "signUp"; readonly email: number }
  | { readonly op: "signIn"; readonly user: number }
  | { readonly op: "deleteUser"; readonly user: number }
  | { readonly op: "refresh"; readonly session: number }
  | { readonly op: "me"; readonly session: number }
  | { readonly op: "signOut"; readonly session: number }
  | { readonly op: "createTeam"; readonly creator: number | null }
  | { readonly op: "addMember"; readonly team: number; readonly user: number }
  | { readonly op: "removeMember"; readonly team: number; readonly user: number }
  | { readonly op: "grant"; readonly team: number; readonly user: number; readonly permission: number }
  | { readonly op: "deleteTeam"; readonly team: number }
  | { readonly op: "addChannel"; readonly user: number; readonly email: number; readonly usedForAuth: boolean }
  | { readonly op: "createApiKey"; readonly user: number }
  | { readonly op: "checkApiKey"; readonly key: number }

const index = fc.nat({ max: 7 })
const ops: Arbitrary.Arbitrary<Op> = fc.oneof<Op>(
  fc.record({ op: fc.constant("createUser" as const), email: fc.nat({ max: emailPool.length - 1 }), password: fc.boolean() }),
  fc.record({ op: fc.constant("signUp" as const), email: fc.nat({ max: emailPool.length - 1 }) }),
  fc.record({ op: fc.constant("signIn" as const), user: index }),
  fc.record({ op: fc.constant("deleteUser" as const), user: index }),
  fc.record({ op: fc.constant("refresh" as const), session: index }),
  fc.record({ op: fc.constant("me" as const), session: index }),
  fc.record({ op: fc.constant("signOut" as const), session: index }),
  ...(hasTeams
    ? [
      fc.record({ op: fc.constant("createTeam" as const), creator: fc.option(index) }),
      fc.record({ op: fc.constant("addMember" as const), team: index, user: index }),
      fc.record({ op: fc.constant("removeMember" as const), team: index, user: index }),
      fc.record({ op: fc.constant("deleteTeam" as const), team: index })
    ]
    : []),
  ...(hasTeams && hasTeamPermissions
    ? [fc.record({ op: fc.constant("grant" as const), team: index, user: index, permission: fc.nat({ max: permissionPool.length - 1 }) })]
    : []),
  ...(hasContactChannels
    ? [fc.record({ op: fc.constant("addChannel" as const), user: index, email: fc.nat({ max: emailPool.length - 1 }), usedForAuth: fc.boolean() })]
    : []),
  fc.record({ op: fc.constant("createApiKey" as const), user: index }),
  fc.record({ op: fc.constant("checkApiKey" as const), key: index })
)

interface ModelUser {
  readonly id: string
  readonly email: string | null
  readonly password: string | null
  readonly channels: Array<{ readonly value: string; readonly usedForAuth: boolean }>
}
interface ModelSession {
  readonly userId: string
  readonly accessToken: string
  readonly refreshToken: string
  alive: boolean
}
interface ModelApiKey {
  readonly userId: string
  readonly value: string
}
interface ModelTeam {
  readonly id: string
  readonly members: Set<string>
  readonly grants: Map<string, Set<string>>
}
interface Model {
  readonly users: Map<string, ModelUser>
  readonly deletedUsers: Set<string>
  readonly sessions: Array<ModelSession>
  readonly teams: Map<string, ModelTeam>
  readonly deletedTeams: Array<string>
  readonly apiKeys: Array<ModelApiKey>
}

const pick = <A>(items: ReadonlyArray<A>, i: number): A | undefined => (items.length === 0 ? undefined : items[i % items.length])

const authEmailsOf = (user: ModelUser): Set<string> =>
  new Set([...(user.email === null ? [] : [user.email]), ...user.channels.filter((channel) => channel.usedForAuth).map((channel) => channel.value)])

const ownerOfAuthEmail = (model: Model, email: string): string | undefined => [...model.users.values()].find((user) => authEmailsOf(user).has(email))?.id

const codeOf = (answer: Answer): string | null => answer.headers.get("x-stack-known-error")
const describeAnswer = (answer: Answer) => `${answer.status} ${codeOf(answer) ?? ""} ${answer.text.slice(0, 200)}`

describe("model-based sequences against the emulator", () => {
  it(
    `${modelRuns} random sequences of ${modelSteps} operations keep the invariants (teams: ${hasTeams}, team permissions: ${hasTeamPermissions}, contact channels: ${hasContactChannels})`,
    async () => {
      const covered = new Map<string, number>()
      await Effect.runPromise(fc.check(
        fc.array(ops, { minLength: 1, maxLength: modelSteps }),
        (sequence) =>
          Effect.promise(async () => {
            const emulator = await Effect.runPromise(makeEmulator({ demo: { config: { allowUserApiKeys: true } } }))
            const demo = emulator.demo
            const project = emulator.state.projects.get(demo.projectId)!
            const baselineUsers = new Set(project.users.keys())
            const model: Model = { users: new Map(), deletedUsers: new Set(), sessions: [], teams: new Map(), deletedTeams: [], apiKeys: [] }
            const call = (input: Parameters<typeof send>[1]) => Effect.runPromise(send(emulator, input))
            const server = serverHeaders(demo)
            const expectAnswer = (answer: Answer, step: string, ok: ReadonlyArray<number>, codes: ReadonlyArray<string> = []) => {
              const good = ok.includes(answer.status) || (codeOf(answer) !== null && codes.includes(codeOf(answer)!))
              if (!good) throw new Error(`${step}: unexpected answer ${describeAnswer(answer)}`)
            }
            const liveUsers = () => [...model.users.values()]
            const liveTeams = () => [...model.teams.values()]
            const anyUserId = (i: number) => pick([...liveUsers().map((user) => user.id), ...model.deletedUsers], i)
            const anyTeamId = (i: number) => pick([...liveTeams().map((team) => team.id), ...model.deletedTeams], i)

            for (const [stepIndex, op] of sequence.entries()) {
              const step = `step ${stepIndex} ${JSON.stringify(op)}`
              covered.set(op.op, (covered.get(op.op) ?? 0) + 1)
              switch (op.op) {
                case "createUser": {
                  const email = emailPool[op.email]!
                  const password = op.password ? "correct horse battery" : null
                  const answer = await call({
                    method: "POST",
                    path: "/api/v1/users",
                    headers: server,
                    body: { primary_email: email, primary_email_auth_enabled: true, ...(password === null ? {} : { password }) }
                  })
                  if (ownerOfAuthEmail(model, email) !== undefined) {
                    expectAnswer(answer, step, [], ["USER_EMAIL_ALREADY_EXISTS"])
                  } else {
                    expectAnswer(answer, step, [201])
                    model.users.set(answer.json.id, { id: answer.json.id, email, password, channels: [] })
                  }
                  break
                }
                case "signUp": {
                  const email = emailPool[op.email]!
                  const answer = await call({
                    method: "POST",
                    path: "/api/v1/auth/password/sign-up",
                    headers: clientHeaders(demo),
                    body: { email, password: "correct horse battery" }
                  })
                  if (ownerOfAuthEmail(model, email) !== undefined) {
                    expectAnswer(answer, step, [], ["USER_EMAIL_ALREADY_EXISTS"])
                  } else {
                    expectAnswer(answer, step, [200])
                    model.users.set(answer.json.user_id, { id: answer.json.user_id, email, password: "correct horse battery", channels: [] })
                    model.sessions.push({
                      userId: answer.json.user_id,
                      accessToken: answer.json.access_token,
                      refreshToken: answer.json.refresh_token,
                      alive: true
                    })
                  }
                  break
                }
                case "signIn": {
                  const user = pick(liveUsers().filter((candidate) => candidate.email !== null && candidate.password !== null), op.user)
                  if (user === undefined) break
                  const answer = await call({
                    method: "POST",
                    path: "/api/v1/auth/password/sign-in",
                    headers: clientHeaders(demo),
                    body: { email: user.email, password: user.password }
                  })
                  expectAnswer(answer, step, [200])
                  expect(answer.json.user_id).toBe(user.id)
                  model.sessions.push({ userId: user.id, accessToken: answer.json.access_token, refreshToken: answer.json.refresh_token, alive: true })
                  break
                }
                case "deleteUser": {
                  const userId = anyUserId(op.user)
                  if (userId === undefined) break
                  const answer = await call({ method: "DELETE", path: `/api/v1/users/${userId}`, headers: server })
                  if (model.users.has(userId)) {
                    expectAnswer(answer, step, [200])
                    model.users.delete(userId)
                    model.deletedUsers.add(userId)
                    for (const session of model.sessions) if (session.userId === userId) session.alive = false
                    for (const team of model.teams.values()) {
                      team.members.delete(userId)
                      team.grants.delete(userId)
                    }
                  } else {
                    expectAnswer(answer, step, [], ["USER_NOT_FOUND"])
                  }
                  break
                }
                case "refresh": {
                  const session = pick(model.sessions, op.session)
                  if (session === undefined) break
                  const answer = await call({
                    method: "POST",
                    path: "/api/v1/auth/sessions/current/refresh",
                    headers: clientHeaders(demo, { "x-stack-refresh-token": session.refreshToken })
                  })
                  if (session.alive) expectAnswer(answer, step, [200])
                  else expectAnswer(answer, step, [], ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"])
                  break
                }
                case "me": {
                  const session = pick(model.sessions, op.session)
                  if (session === undefined) break
                  const answer = await call({ path: "/api/v1/users/me", headers: clientHeaders(demo, { "x-stack-access-token": session.accessToken }) })
                  // an access token stays valid until it expires, even after sign-out; a deleted user is gone
                  if (model.users.has(session.userId)) {
                    expectAnswer(answer, step, [200])
                    expect(answer.json.id).toBe(session.userId)
                  } else {
                    expectAnswer(answer, step, [], ["CANNOT_GET_OWN_USER_WITHOUT_USER"])
                  }
                  break
                }
                case "signOut": {
                  const session = pick(
                    model.sessions.filter((candidate) => model.users.has(candidate.userId)),
                    op.session
                  )
                  if (session === undefined) break
                  const answer = await call({
                    method: "DELETE",
                    path: "/api/v1/auth/sessions/current",
                    headers: clientHeaders(demo, { "x-stack-access-token": session.accessToken, "x-stack-refresh-token": session.refreshToken }),
                    body: {}
                  })
                  if (session.alive) expectAnswer(answer, step, [200])
                  else expectAnswer(answer, step, [200], ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"])
                  session.alive = false
                  break
                }
                case "createTeam": {
                  const creator = op.creator === null ? undefined : pick(liveUsers(), op.creator)
                  const answer = await call({
                    method: "POST",
                    path: "/api/v1/teams",
                    headers: server,
                    body: { display_name: `Team ${stepIndex}`, ...(creator === undefined ? {} : { creator_user_id: creator.id }) }
                  })
                  expectAnswer(answer, step, [201])
                  model.teams.set(answer.json.id, { id: answer.json.id, members: new Set(creator === undefined ? [] : [creator.id]), grants: new Map() })
                  break
                }
                case "addMember": {
                  const teamId = anyTeamId(op.team)
                  const userId = anyUserId(op.user)
                  if (teamId === undefined || userId === undefined) break
                  const answer = await call({ method: "POST", path: `/api/v1/team-memberships/${teamId}/${userId}`, headers: server, body: {} })
                  const team = model.teams.get(teamId)
                  if (team === undefined || !model.users.has(userId)) {
                    expectAnswer(answer, step, [], ["TEAM_NOT_FOUND", "USER_NOT_FOUND"])
                  } else if (team.members.has(userId)) {
                    expectAnswer(answer, step, [], ["TEAM_MEMBERSHIP_ALREADY_EXISTS"])
                  } else {
                    expectAnswer(answer, step, [201])
                    team.members.add(userId)
                  }
                  break
                }
                case "removeMember": {
                  const team = pick(liveTeams(), op.team)
                  const userId = anyUserId(op.user)
                  if (team === undefined || userId === undefined) break
                  const answer = await call({ method: "DELETE", path: `/api/v1/team-memberships/${team.id}/${userId}`, headers: server })
                  if (team.members.has(userId)) {
                    expectAnswer(answer, step, [200])
                    team.members.delete(userId)
                    team.grants.delete(userId)
                  } else {
                    expectAnswer(answer, step, [], ["TEAM_MEMBERSHIP_NOT_FOUND", "USER_NOT_FOUND"])
                  }
                  break
                }
                case "grant": {
                  const team = pick(liveTeams(), op.team)
                  const userId = anyUserId(op.user)
                  if (team === undefined || userId === undefined) break
                  const permission = permissionPool[op.permission]!
                  const answer = await call({
                    method: "POST",
                    path: `/api/v1/team-permissions/${team.id}/${userId}/${encodeURIComponent(permission)}`,
                    headers: server,
                    body: {}
                  })
                  const known = permission !== "no_such_permission"
                  if (!team.members.has(userId)) {
                    expectAnswer(answer, step, [], ["TEAM_MEMBERSHIP_NOT_FOUND", "USER_NOT_FOUND", ...(known ? [] : ["PERMISSION_NOT_FOUND"])])
                  } else if (!known) {
                    expectAnswer(answer, step, [], ["PERMISSION_NOT_FOUND"])
                  } else {
                    expectAnswer(answer, step, [201])
                    const granted = team.grants.get(userId) ?? new Set<string>()
                    granted.add(permission)
                    team.grants.set(userId, granted)
                  }
                  break
                }
                case "deleteTeam": {
                  const teamId = anyTeamId(op.team)
                  if (teamId === undefined) break
                  const answer = await call({ method: "DELETE", path: `/api/v1/teams/${teamId}`, headers: server })
                  if (model.teams.has(teamId)) {
                    expectAnswer(answer, step, [200])
                    model.teams.delete(teamId)
                    model.deletedTeams.push(teamId)
                  } else {
                    expectAnswer(answer, step, [], ["TEAM_NOT_FOUND"])
                  }
                  break
                }
                case "addChannel": {
                  const user = pick(liveUsers(), op.user)
                  if (user === undefined) break
                  const value = emailPool[op.email]!
                  const answer = await call({
                    method: "POST",
                    path: "/api/v1/contact-channels",
                    headers: server,
                    body: { user_id: user.id, type: "email", value, used_for_auth: op.usedForAuth }
                  })
                  const owner = ownerOfAuthEmail(model, value)
                  const ownDuplicate = user.email === value || user.channels.some((channel) => channel.value === value)
                  if (op.usedForAuth && owner !== undefined && owner !== user.id) {
                    expectAnswer(answer, step, [], ["CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE"])
                  } else if (ownDuplicate) {
                    // the primary e-mail may or may not count as a channel; either way no second channel
                    expectAnswer(answer, step, [201, 400])
                    if (answer.status === 400) expect(codeOf(answer)).toBeNull()
                    if (answer.status === 201) user.channels.push({ value, usedForAuth: op.usedForAuth })
                  } else {
                    expectAnswer(answer, step, [201])
                    user.channels.push({ value, usedForAuth: op.usedForAuth })
                  }
                  break
                }
                case "createApiKey": {
                  const userId = anyUserId(op.user)
                  if (userId === undefined) break
                  const answer = await call({
                    method: "POST",
                    path: "/api/v1/user-api-keys",
                    headers: server,
                    body: { user_id: userId, description: `key ${stepIndex}`, expires_at_millis: null }
                  })
                  if (model.users.has(userId)) {
                    expectAnswer(answer, step, [200])
                    model.apiKeys.push({ userId, value: answer.json.value })
                  } else {
                    expectAnswer(answer, step, [], ["USER_NOT_FOUND"])
                  }
                  break
                }
                case "checkApiKey": {
                  const key = pick(model.apiKeys, op.key)
                  if (key === undefined) break
                  const answer = await call({ method: "POST", path: "/api/v1/user-api-keys/check", headers: server, body: { api_key: key.value } })
                  if (model.users.has(key.userId)) {
                    expectAnswer(answer, step, [200])
                    expect(answer.json.user_id, step).toBe(key.userId)
                  } else {
                    expectAnswer(answer, step, [], ["API_KEY_NOT_FOUND"])
                  }
                  break
                }
              }

              // ---- invariants, read from the emulator's state and its API
              // the user-deletion cascade: a deleted user's id appears nowhere in the state
              for (const userId of model.deletedUsers) {
                const left = userReferences(emulator.state, userId)
                if (left.length > 0) throw new Error(`${step}: deleted user ${userId} still referenced at ${left.join(", ")}`)
              }
              const stateUsers = new Set([...project.users.keys()].filter((id) => !baselineUsers.has(id)))
              expect(stateUsers, step).toEqual(new Set(model.users.keys()))
              // e-mails used for auth are unique across users
              const authOwners = new Map<string, string>()
              for (const user of project.users.values()) {
                const emails = new Set<string>()
                if (user.primaryEmailAuthEnabled && user.primaryEmail !== null) emails.add(user.primaryEmail)
                for (const channel of user.contactChannels ?? []) if (channel.usedForAuth) emails.add(channel.value)
                for (const email of emails) {
                  const other = authOwners.get(email)
                  if (other !== undefined) throw new Error(`${step}: e-mail ${email} used for auth by ${other} and ${user.id}`)
                  authOwners.set(email, user.id)
                }
              }
              // no session of a deleted user
              for (const session of project.sessions.values()) {
                if (!project.users.has(session.userId)) throw new Error(`${step}: session ${session.id} of deleted user ${session.userId}`)
              }
              // no orphan membership; memberships as the model says
              for (const team of project.teams?.values() ?? []) {
                for (const member of team.memberUserIds) {
                  if (!project.users.has(member)) throw new Error(`${step}: team ${team.id} keeps deleted user ${member}`)
                }
                const modelTeam = model.teams.get(team.id)
                if (modelTeam !== undefined) expect(new Set(team.memberUserIds), `${step}: members of ${team.id}`).toEqual(modelTeam.members)
              }
              for (const teamId of model.deletedTeams) expect(project.teams?.has(teamId) ?? false, `${step}: deleted team ${teamId}`).toBe(false)
              // team permissions only for members of existing teams
              for (const [teamId, byUser] of project.permissions?.teamGrants ?? new Map<string, Map<string, Set<string>>>()) {
                for (const [userId, granted] of byUser) {
                  if (granted.size === 0) continue
                  const team = project.teams?.get(teamId)
                  if (team === undefined) throw new Error(`${step}: grants ${[...granted].join(",")} kept for deleted team ${teamId}`)
                  if (!team.memberUserIds.has(userId)) throw new Error(`${step}: grants ${[...granted].join(",")} of non-member ${userId} in team ${teamId}`)
                }
              }
            }

            // through the API: each team's member list and each member's direct permissions match the model
            for (const team of model.teams.values()) {
              const profiles = await call({ path: `/api/v1/team-member-profiles?team_id=${team.id}`, headers: server })
              expectAnswer(profiles, `member profiles of ${team.id}`, [200])
              expect(new Set(profiles.json.items.map((item: { user_id: string }) => item.user_id))).toEqual(team.members)
              if (!hasTeamPermissions) continue
              for (const userId of team.members) {
                const listed = await call({ path: `/api/v1/team-permissions?team_id=${team.id}&user_id=${userId}&recursive=false`, headers: server })
                expectAnswer(listed, `permissions of ${userId} in ${team.id}`, [200])
                const ids = new Set(listed.json.items.map((item: { id: string }) => item.id))
                for (const granted of team.grants.get(userId) ?? []) expect(ids.has(granted), `${granted} of ${userId} in ${team.id}`).toBe(true)
              }
            }
            // a deleted user's refresh tokens are all dead
            for (const session of model.sessions.filter((candidate) => model.deletedUsers.has(candidate.userId))) {
              const answer = await call({
                method: "POST",
                path: "/api/v1/auth/sessions/current/refresh",
                headers: clientHeaders(demo, { "x-stack-refresh-token": session.refreshToken })
              })
              expectAnswer(answer, "refresh of a deleted user's session", [], ["REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"])
            }
            return true
          }),
        { runs: modelRuns }
      ))
      // report which operations the runs covered
      console.info(`model-based operations covered: ${JSON.stringify(Object.fromEntries(covered))}`)
      expect(covered.get("createUser") ?? 0).toBeGreaterThan(0)
    },
    timeout(120_000, 400_000)
  )
})

describe("no unhandled rejection", () => {
  it("none was raised during the emulator runs", () => {
    expect(unhandled).toEqual([])
  })
})
