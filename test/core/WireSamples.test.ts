/**
 * The SDK decodes the recorded answers of a real instance (test/fixtures/wire-samples/): for every
 * sample whose request is one of our endpoint definitions (same method and access level, path
 * matching the pattern), a 2xx body decodes with the endpoint's success schema, and a known error
 * decodes into one of the classes the endpoint declares or the common ones.
 */
import { Effect, Option, Result, Schema } from "effect"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import * as Anonymous from "../../src/auth/internal/anonymous.js"
import * as Cli from "../../src/auth/internal/cli.js"
import * as EmailVerification from "../../src/auth/internal/emailVerification.js"
import * as MagicLink from "../../src/auth/internal/magicLink.js"
import * as Mfa from "../../src/auth/internal/mfa.js"
import * as Password from "../../src/auth/internal/password.js"
import * as PasswordReset from "../../src/auth/internal/passwordReset.js"
import * as Passkeys from "../../src/auth/internal/passkeys.js"
import * as OAuth from "../../src/auth/internal/oauth.js"
import * as ConnectedAccounts from "../../src/connected-accounts/internal/connectedAccounts.js"
import * as ContactChannels from "../../src/contact-channels/internal/contactChannels.js"
import * as Sessions from "../../src/auth/internal/sessions.js"
import * as Tokens from "../../src/session/RefreshGrant.js"
import * as Endpoint from "../../src/core/Endpoint.js"
import { commonErrorClasses, decodeResponse } from "../../src/core/internal/call.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"
import * as ServerUsers from "../../src/users/internal/serverUsers.js"
import * as Users from "../../src/users/internal/users.js"
import * as InternalApiKeys from "../../src/projects/internal/internalApiKeys.js"
import * as UserApiKeys from "../../src/api-keys/internal/userApiKeys.js"
import * as Projects from "../../src/projects/internal/projects.js"
import * as Admin from "../../src/projects/internal/admin.js"
import * as EmailTemplates from "../../src/emails/internal/emailTemplates.js"
import * as Emails from "../../src/emails/internal/emails.js"
import * as Teams from "../../src/teams/internal/teams.js"
import * as ServerTeams from "../../src/teams/internal/serverTeams.js"
import * as TeamMemberProfiles from "../../src/teams/internal/teamMemberProfiles.js"
import * as TeamInvitations from "../../src/teams/internal/teamInvitations.js"
import * as TeamApiKeys from "../../src/api-keys/internal/teamApiKeys.js"
import * as Permissions from "../../src/permissions/internal/permissions.js"
import * as ServerPermissions from "../../src/permissions/internal/serverPermissions.js"
import * as PermissionDefinitions from "../../src/permissions/internal/permissionDefinitions.js"

const samplesRoot = new URL("../fixtures/wire-samples/", import.meta.url).pathname

interface Sample {
  readonly file: string
  readonly request: { method: string; path: string; headers: Record<string, string>; body?: unknown }
  readonly response: { status: number; headers: Record<string, string>; body?: unknown }
}

const samples: ReadonlyArray<Sample> = readdirSync(samplesRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    readdirSync(join(samplesRoot, dir.name))
      .filter((file) => file.endsWith(".json"))
      .map((file) => ({ file: `${dir.name}/${file}`, ...JSON.parse(readFileSync(join(samplesRoot, dir.name, file), "utf8")) }))
  )

const endpoints: ReadonlyArray<Endpoint.Any> = [
  Anonymous,
  Cli,
  ConnectedAccounts,
  ContactChannels,
  EmailVerification,
  MagicLink,
  Mfa,
  OAuth,
  Passkeys,
  Password,
  PasswordReset,
  Sessions,
  Tokens,
  ServerUsers,
  Users,
  Projects,
  InternalApiKeys,
  Admin,
  EmailTemplates,
  Emails,
  UserApiKeys,
  Teams,
  ServerTeams,
  TeamMemberProfiles,
  TeamInvitations,
  TeamApiKeys,
  Permissions,
  ServerPermissions,
  PermissionDefinitions
].flatMap((module) =>
  Object.values(module).filter(
    (value): value is Endpoint.Any => typeof value === "object" && value !== null && "method" in value && "success" in value && "errors" in value
  )
)

const accessOf = (sample: Sample) => Object.entries(sample.request.headers).find(([name]) => name.toLowerCase() === "x-stack-access-type")?.[1] ?? "none"

const endpointFor = (sample: Sample) => {
  const [path] = sample.request.path.replace(/^\/api\/v1/, "").split("?")
  const grant = grantOf(sample)
  return endpoints.find(
    (endpoint) =>
      (endpoint.path !== "/auth/oauth/token" ||
        (grant === "refresh_token" ? endpoint === Tokens.refreshGrant : endpoint !== Tokens.refreshGrant)) &&
      endpoint.method === sample.request.method &&
      Endpoint.matchPath(endpoint.path, path ?? "") !== undefined &&
      (endpoint.access === accessOf(sample) || (endpoint.access === "none" && accessOf(sample) === "none"))
  )
}

/** Requests our SDK never sends the way the sample did. */
const notOurRequest = (sample: Sample): string | undefined => {
  const headers = Object.keys(sample.request.headers).map((name) => name.toLowerCase())
  if (
    accessOf(sample) !== "none" && !headers.includes("x-stack-allow-anonymous-user") &&
    sample.response.headers["x-stack-known-error"] === "ANONYMOUS_AUTHENTICATION_NOT_ALLOWED"
  ) {
    return "the SDK always sends X-Stack-Allow-Anonymous-User"
  }
  return undefined
}

/** The token endpoint serves two grants: pick the definition by the sample's grant type. */
const grantOf = (sample: Sample): string | undefined => {
  const body = sample.request.body
  if (typeof body === "string") return new URLSearchParams(body).get("grant_type") ?? undefined
  if (typeof body === "object" && body !== null && "grant_type" in body) return String(body.grant_type)
  return undefined
}

const covered = samples.flatMap((sample) => {
  if (notOurRequest(sample) !== undefined) return []
  const endpoint = endpointFor(sample)
  return endpoint === undefined ? [] : [{ sample, endpoint }]
})

describe("the SDK decodes the recorded answers of the real service", () => {
  it("covers the samples of this slice's endpoints", () => {
    expect(covered.length).toBeGreaterThanOrEqual(15)
  })

  for (const { sample, endpoint } of covered) {
    it(`${sample.file}: ${sample.request.method} ${sample.request.path.slice(0, 60)} → ${sample.response.status}`, async () => {
      const headers = Object.fromEntries(Object.entries(sample.response.headers).map(([k, v]) => [k.toLowerCase(), v]))
      const text = sample.response.body === undefined
        ? ""
        : typeof sample.response.body === "string"
        ? sample.response.body
        : JSON.stringify(sample.response.body)
      const status = Number(headers["x-stack-actual-status"] ?? sample.response.status)
      const declared = [
        ...endpoint.errors,
        ...commonErrorClasses(endpoint.access),
        KnownErrors.UnparsableAccessToken,
        KnownErrors.AccessTokenExpired,
        KnownErrors.InvalidProjectForAccessToken
      ]
      const result = await Effect.runPromise(
        Effect.result(
          decodeResponse(endpoint.name, { status, headers, text, method: sample.request.method, url: sample.request.path }, endpoint.success, declared)
        )
      )
      if (status >= 200 && status < 300) {
        expect(Result.isSuccess(result), JSON.stringify(Result.isFailure(result) ? result.failure : null)).toBe(true)
      } else if (headers["x-stack-known-error"] !== undefined) {
        expect(Result.isFailure(result)).toBe(true)
        const error = Result.isFailure(result) ? (result.failure as { _tag: string; code?: string }) : undefined
        expect(error?.code).toBe(headers["x-stack-known-error"])
        expect(error?._tag).not.toBe("UnsupportedKnownError")
      } else {
        expect(Result.isFailure(result) && (result.failure as { _tag: string })._tag).toBe("HttpError")
      }
    })
  }

  it("the decoded user of users/01 is camelCase with Dates", () => {
    const sample = samples.find((s) => s.file === "users/01-me-get-client.json")!
    const user = Schema.decodeUnknownSync(Users.getCurrentEndpoint.success)(sample.response.body)
    expect(user.signedUpAt).toBeInstanceOf(Date)
    expect(typeof user.emailAuthEnabled).toBe("boolean")
    expect(Option.isOption(user)).toBe(false)
  })
})
