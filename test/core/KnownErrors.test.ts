import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { Result, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { UnexpectedKnownError, UnsupportedKnownError } from "../../src/core/Errors.js"
import { tagOfCode } from "../../src/core/KnownError.js"
import type { KnownErrorClass } from "../../src/core/KnownError.js"
import * as KnownErrors from "../../src/core/KnownErrors.js"

// ---------------------------------------------------------------------------------------------
// PROTOCOL.md §4, read at test time
// ---------------------------------------------------------------------------------------------

const protocol = readFileSync(new URL("../../docs/PROTOCOL.md", import.meta.url), "utf8")
const section4 = protocol.slice(protocol.indexOf("## 4. Known errors"), protocol.indexOf("## 5."))

interface Row {
  readonly code: string
  readonly http: string
  readonly parent: string
}

/** Every row of the table; a row naming several codes (comma-separated) gives one entry per code. */
const tableRows: ReadonlyArray<Row> = section4
  .split("\n")
  .filter((line) => /^\| [A-Z][A-Z0-9_]*[ ,]/.test(line))
  .flatMap((line) => {
    const [codes = "", http = "", parent = ""] = line.split("|").slice(1).map((cell) => cell.trim())
    return codes.split(",").map((code) => ({ code: code.trim(), http, parent }))
  })

const abstractRows = tableRows.filter((row) => row.http === "(abstract)")
const concreteRows = tableRows.filter((row) => row.http !== "(abstract)" && row.code !== "UNSUPPORTED_ERROR")

/** The paragraph after the table: "`CODE` 400 (keys); …" for e-mail, payments, analytics, data vault. */
const paragraphCodes: ReadonlyArray<{ readonly code: string; readonly status: number }> = [
  ...section4.slice(section4.indexOf("E-mail, payments, analytics and data-vault errors")).matchAll(/`([A-Z][A-Z0-9_]+)` (\d{3})/g)
].map((m) => ({ code: m[1]!, status: Number(m[2]) }))

/** Codes SPEC.md §8 names that the PROTOCOL table does not list. */
const specOnlyCodes: ReadonlyArray<{ readonly code: string; readonly status: number }> = [{ code: "TEAM_ALREADY_EXISTS", status: 409 }]

// ---------------------------------------------------------------------------------------------
// Recorded responses
// ---------------------------------------------------------------------------------------------

const samplesDir = fileURLToPath(new URL("../fixtures/wire-samples/", import.meta.url))

const jsonFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? jsonFiles(join(dir, entry.name)) : entry.name.endsWith(".json") ? [join(dir, entry.name)] : []
  )

interface KnownErrorSample {
  readonly file: string
  readonly header: string
  readonly status: number
  readonly body: { readonly code: string; readonly error: string; readonly details?: unknown }
}

const knownErrorSamples: ReadonlyArray<KnownErrorSample> = jsonFiles(samplesDir).flatMap((file) => {
  const sample = JSON.parse(readFileSync(file, "utf8")) as {
    response?: { status: number; headers?: Record<string, string>; body?: unknown }
  }
  const headers = Object.fromEntries(Object.entries(sample.response?.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]))
  const header = headers["x-stack-known-error"]
  if (header === undefined || sample.response === undefined) return []
  const actual = headers["x-stack-actual-status"]
  return [
    {
      file: file.slice(samplesDir.length),
      header,
      status: actual !== undefined ? Number(actual) : sample.response.status,
      body: sample.response.body as KnownErrorSample["body"]
    }
  ]
})

const classOf = (code: string): KnownErrorClass => {
  const cls = KnownErrors.byCode.get(code)
  if (cls === undefined) throw new Error(`no class for ${code}`)
  return cls
}

// ---------------------------------------------------------------------------------------------
// Rules
// ---------------------------------------------------------------------------------------------

describe("the catalogue holds every code of PROTOCOL.md §4", () => {
  it("reads the whole table (sanity check of the parser)", () => {
    expect(concreteRows.length).toBeGreaterThan(100)
    expect(abstractRows.map((row) => row.code)).toContain("VERIFICATION_ERROR")
    expect(concreteRows.map((row) => row.code)).toContain("CLIENT_OR_SERVER_OR_ADMIN_AUTHENTICATION_REQUIRED")
    expect(paragraphCodes.length).toBeGreaterThanOrEqual(24)
  })

  it.each(concreteRows)("$code is in byCode with status $http", ({ code, http }) => {
    expect(classOf(code).status).toBe(Number(http))
  })

  it.each(paragraphCodes)("$code (e-mail/payments/analytics/data vault) is in byCode with status $status", ({ code, status }) => {
    expect(classOf(code).status).toBe(status)
  })

  it.each(specOnlyCodes)("$code (named only by SPEC.md §8) is in byCode with status $status", ({ code, status }) => {
    expect(classOf(code).status).toBe(status)
  })

  it("has no class for abstract parents nor for UNSUPPORTED_ERROR (the SDK has UnsupportedKnownError)", () => {
    for (const row of abstractRows) expect(KnownErrors.byCode.has(row.code)).toBe(false)
    expect(KnownErrors.byCode.has("UNSUPPORTED_ERROR")).toBe(false)
  })

  it("invents no code: every class is a table row, a paragraph code or a SPEC.md code", () => {
    const documented = new Set([...concreteRows, ...paragraphCodes, ...specOnlyCodes].map((entry) => entry.code))
    for (const cls of KnownErrors.all) expect(documented.has(cls.code), cls.code).toBe(true)
  })

  it("holds each code once, so byCode has one entry per class", () => {
    expect(KnownErrors.byCode.size).toBe(KnownErrors.all.length)
  })
})

describe("class shape", () => {
  it.each(KnownErrors.all.map((cls) => ({ code: cls.code, cls })))("$code has the PascalCase tag of its code", ({ code, cls }) => {
    const error = new cls({ message: "m", details: {} })
    expect(error._tag).toBe(tagOfCode(code))
    expect(error.code).toBe(code)
    expect(error.status).toBe(cls.status)
    expect(error.message).toBe("m")
  })

  it("turns SOME_CODE into SomeCode, acronyms included", () => {
    expect(new KnownErrors.EmailPasswordMismatch({ message: "", details: {} })._tag).toBe("EmailPasswordMismatch")
    expect(new KnownErrors.OauthProviderAccessDenied({ message: "", details: {} })._tag).toBe("OauthProviderAccessDenied")
    expect(new KnownErrors.PasskeyWebauthnError({ message: "", details: { message: "", code: "" } })._tag).toBe("PasskeyWebauthnError")
  })

  it("is a yieldable error carrying code, status, message and details", () => {
    const error = KnownErrors.TeamNotFound.make({ team_id: "t1" })
    expect(error).toBeInstanceOf(Error)
    expect(error).toBeInstanceOf(KnownErrors.TeamNotFound)
    expect(error.details).toEqual({ team_id: "t1" })
  })
})

describe("make(details) renders the service's message template", () => {
  it("PASSWORD_TOO_SHORT names the minimum length", () => {
    expect(KnownErrors.PasswordTooShort.make({ min_length: 8 }).message).toBe("Password too short. Minimum length is 8.")
  })

  it("PASSWORD_TOO_LONG reads `maxLength` (camelCase on the wire)", () => {
    expect(KnownErrors.PasswordTooLong.make({ maxLength: 70 }).message).toBe("Password too long. Maximum length is 70.")
  })

  it("PERMISSION_NOT_FOUND quotes the permission id", () => {
    expect(KnownErrors.PermissionNotFound.make({ permission_id: "read" }).message).toBe(
      "Permission \"read\" not found. Make sure you created it on the dashboard."
    )
  })

  it("TEAM_MEMBERSHIP_NOT_FOUND names user then team", () => {
    expect(KnownErrors.TeamMembershipNotFound.make({ team_id: "t1", user_id: "u1" }).message).toBe("User u1 is not found in team t1.")
  })

  it("INSUFFICIENT_ACCESS_TYPE quotes the allowed types joined with ' or '", () => {
    expect(
      KnownErrors.InsufficientAccessType.make({ actual_access_type: "client", allowed_access_types: ["server", "admin"] }).message
    ).toBe("The x-stack-access-type header must be 'server' or 'admin', but was 'client'.")
    expect(KnownErrors.InsufficientAccessType.make({ actual_access_type: "server", allowed_access_types: ["admin"] }).message).toBe(
      "The x-stack-access-type header must be 'admin', but was 'server'."
    )
  })

  it("USER_EMAIL_ALREADY_EXISTS has a variant for an unverified e-mail", () => {
    expect(KnownErrors.UserEmailAlreadyExists.make({ email: "a@b.c", would_work_if_email_was_verified: false }).message).toBe(
      "A user with email \"a@b.c\" already exists."
    )
    expect(KnownErrors.UserEmailAlreadyExists.make({ email: "a@b.c", would_work_if_email_was_verified: true }).message).toBe(
      "A user with email \"a@b.c\" already exists but the email is not verified. Please login to your existing account with the method you used to sign up, and then verify your email to sign in with this login method."
    )
  })

  it("ADMIN_ACCESS_TOKEN_EXPIRED adds the expiry when known", () => {
    expect(KnownErrors.AdminAccessTokenExpired.make({ expired_at_millis: 0 }).message).toBe(
      "Admin access token has expired. Please refresh it and try again. (The access token expired at 1970-01-01T00:00:00.000Z.)"
    )
    expect(KnownErrors.AdminAccessTokenExpired.make({ expired_at_millis: null }).message).toBe(
      "Admin access token has expired. Please refresh it and try again."
    )
  })

  it("ACCESS_TOKEN_EXPIRED keeps the short text", () => {
    expect(KnownErrors.AccessTokenExpired.make({}).message).toBe("Access token has expired. Please refresh it and try again.")
  })

  it("messages the service does not put in details get the SDK's defaults", () => {
    expect(KnownErrors.PasskeyAuthenticationFailed.make({}).message).toBe("Failed to sign in with passkey")
    expect(KnownErrors.CliAuthExpiredError.make({}).message).toBe("CLI authentication request expired. Please try again.")
    expect(KnownErrors.CliAuthUsedError.make({}).message).toBe("This authentication token has already been used.")
    expect(KnownErrors.SignUpRejected.make({}).message).toBe("Your sign up was rejected by an administrator's sign-up rule.")
    expect(KnownErrors.SignUpRejected.make({ message: "No." }).message).toBe("No.")
  })

  it("{brand} is Stack Auth", () => {
    expect(KnownErrors.RedirectUrlNotWhitelisted.make({}).message).toBe(
      "Redirect URL not whitelisted. Did you forget to add this domain to the trusted domains list on the Stack Auth dashboard?"
    )
  })
})

describe("recorded responses (wire-samples/) decode with the catalogue", () => {
  it("finds the recorded known errors (sanity check of the walk)", () => {
    expect(knownErrorSamples.length).toBeGreaterThan(50)
  })

  it.each(knownErrorSamples)("$file: $header decodes, with its status", ({ header, status, body }) => {
    expect(body.code).toBe(header)
    const cls = classOf(body.code)
    expect(Result.isSuccess(Schema.decodeUnknownResult(cls.detailsSchema)(body.details ?? {}))).toBe(true)
    expect(status).toBe(cls.status)
  })

  /** Codes whose recorded message make() cannot rebuild from details (text not in details, or shortened on purpose). */
  const notRebuilt = new Set([
    "ACCESS_TOKEN_EXPIRED",
    "ACCESS_TYPE_REQUIRED",
    "INVALID_ACCESS_TYPE",
    "PASSKEY_REGISTRATION_FAILED",
    "PASSKEY_AUTHENTICATION_FAILED"
  ])

  it.each(knownErrorSamples.filter((sample) => !notRebuilt.has(sample.body.code)))(
    "$file: make(details) reproduces the recorded message",
    ({ body }) => {
      const cls = classOf(body.code)
      const details = Schema.decodeUnknownSync(cls.detailsSchema)(body.details ?? {})
      expect(cls.make(details).message).toBe(body.error)
    }
  )
})

describe("details schemas accept what a real server may send", () => {
  it("INVALID_POLLING_CODE takes missing, null or free-form details", () => {
    const decode = Schema.decodeUnknownSync(KnownErrors.InvalidPollingCode.detailsSchema)
    expect(decode(undefined)).toEqual({})
    expect(decode(null)).toEqual({})
    expect(decode({ anything: [1, 2] })).toEqual({ anything: [1, 2] })
  })

  it("USER_EMAIL_ALREADY_EXISTS without would_work_if_email_was_verified means false", () => {
    expect(Schema.decodeUnknownSync(KnownErrors.UserEmailAlreadyExists.detailsSchema)({ email: "a@b.c" })).toEqual({
      email: "a@b.c",
      would_work_if_email_was_verified: false
    })
  })

  it("nullable keys decode null", () => {
    expect(Result.isSuccess(Schema.decodeUnknownResult(KnownErrors.AdminAccessTokenExpired.detailsSchema)({ expired_at_millis: null }))).toBe(true)
    expect(
      Result.isSuccess(
        Schema.decodeUnknownResult(KnownErrors.ContactChannelAlreadyUsedForAuthBySomeoneElse.detailsSchema)({
          type: "email",
          contact_channel_value: null,
          would_work_if_email_was_verified: false
        })
      )
    ).toBe(true)
    expect(
      Result.isSuccess(
        Schema.decodeUnknownResult(KnownErrors.WrongPermissionScope.detailsSchema)({
          permission_id: "p",
          expected_scope: "team",
          actual_scope: null
        })
      )
    ).toBe(true)
    expect(Result.isSuccess(Schema.decodeUnknownResult(KnownErrors.PublishableClientKeyRequiredForProject.detailsSchema)({ project_id: null }))).toBe(
      true
    )
  })

  it("a required key that is missing is refused", () => {
    expect(Result.isFailure(Schema.decodeUnknownResult(KnownErrors.PasswordTooShort.detailsSchema)({}))).toBe(true)
    expect(Result.isFailure(Schema.decodeUnknownResult(KnownErrors.TeamMembershipNotFound.detailsSchema)({ team_id: "t" }))).toBe(true)
  })
})

/** Every family: its code set and its guard. */
const families: Record<string, { readonly codes: ReadonlySet<string>; readonly is: (u: unknown) => boolean }> = {
  PROJECT_AUTHENTICATION_ERROR: { codes: KnownErrors.projectAuthenticationErrorCodes, is: KnownErrors.isProjectAuthenticationError },
  INVALID_PROJECT_AUTHENTICATION: { codes: KnownErrors.invalidProjectAuthenticationCodes, is: KnownErrors.isInvalidProjectAuthentication },
  INVALID_ADMIN_ACCESS_TOKEN: { codes: KnownErrors.invalidAdminAccessTokenCodes, is: KnownErrors.isInvalidAdminAccessToken },
  PROJECT_AUTHENTICATION_REQUIRED: { codes: KnownErrors.projectAuthenticationRequiredCodes, is: KnownErrors.isProjectAuthenticationRequired },
  SESSION_AUTHENTICATION_ERROR: { codes: KnownErrors.sessionAuthenticationErrorCodes, is: KnownErrors.isSessionAuthenticationError },
  INVALID_SESSION_AUTHENTICATION: { codes: KnownErrors.invalidSessionAuthenticationCodes, is: KnownErrors.isInvalidSessionAuthentication },
  INVALID_ACCESS_TOKEN: { codes: KnownErrors.invalidAccessTokenCodes, is: KnownErrors.isInvalidAccessToken },
  REFRESH_TOKEN_ERROR: { codes: KnownErrors.refreshTokenErrorCodes, is: KnownErrors.isRefreshTokenError },
  PASSWORD_REQUIREMENTS_NOT_MET: { codes: KnownErrors.passwordRequirementsNotMetCodes, is: KnownErrors.isPasswordRequirementsNotMet },
  VERIFICATION_ERROR: { codes: KnownErrors.verificationErrorCodes, is: KnownErrors.isVerificationError },
  API_KEY_NOT_VALID: { codes: KnownErrors.apiKeyNotValidCodes, is: KnownErrors.isApiKeyNotValid }
}

describe("families (abstract parents) are mapped from the concrete codes", () => {
  const parentOf = new Map(tableRows.map((row) => [row.code, row.parent]))
  const ancestorsOf = (code: string): ReadonlyArray<string> => {
    const parent = parentOf.get(code) ?? ""
    return parent === "" ? [] : [parent, ...ancestorsOf(parent)]
  }

  it("has a code set and a guard for every abstract row of the table", () => {
    expect(Object.keys(families).sort()).toEqual(abstractRows.map((row) => row.code).sort())
  })

  it.each(concreteRows)("$code belongs exactly to the families above it in the table", ({ code }) => {
    const ancestors = new Set(ancestorsOf(code))
    const instance = new (classOf(code))({ message: "m", details: {} })
    for (const [family, { codes, is }] of Object.entries(families)) {
      expect(codes.has(code), `${code} in ${family}`).toBe(ancestors.has(family))
      expect(is(instance), `is ${family}(${code})`).toBe(ancestors.has(family))
    }
  })

  it("classifies instances and non-errors", () => {
    expect(KnownErrors.isVerificationError(KnownErrors.VerificationCodeExpired.make({}))).toBe(true)
    expect(KnownErrors.isVerificationError(KnownErrors.UserNotFound.make({}))).toBe(false)
    expect(KnownErrors.isVerificationError("VERIFICATION_CODE_EXPIRED")).toBe(false)
    expect(KnownErrors.isVerificationError(null)).toBe(false)
    expect(KnownErrors.isVerificationError({ code: 42 })).toBe(false)
    expect(KnownErrors.isApiKeyNotValid(KnownErrors.WrongApiKeyType.make({ expected_type: "user", actual_type: "team" }))).toBe(true)
    expect(KnownErrors.isInvalidAccessToken(KnownErrors.AccessTokenExpired.make({}))).toBe(true)
    expect(KnownErrors.isRefreshTokenError(KnownErrors.CannotDeleteCurrentSession.make({}))).toBe(true)
    expect(KnownErrors.isInvalidAdminAccessToken(KnownErrors.AdminAccessTokenIsNotAdmin.make({}))).toBe(true)
    expect(KnownErrors.isInvalidProjectAuthentication(KnownErrors.AdminAccessTokenIsNotAdmin.make({}))).toBe(true)
    expect(KnownErrors.isProjectAuthenticationError(KnownErrors.ExpectedInternalProject.make({}))).toBe(true)
    expect(KnownErrors.isProjectAuthenticationRequired(KnownErrors.ExpectedInternalProject.make({}))).toBe(false)
    expect(KnownErrors.isPasswordRequirementsNotMet(KnownErrors.PasswordTooLong.make({ maxLength: 70 }))).toBe(true)
  })
})

describe("a family guard is a real refinement", () => {
  it("a plain body carrying a member's code is not a member (only instances of the family's classes are)", () => {
    expect(KnownErrors.isVerificationError({ code: "VERIFICATION_CODE_ALREADY_USED", error: "…" })).toBe(false)
    expect(KnownErrors.isRefreshTokenError({ code: "PROVIDER_REJECTED" })).toBe(false)
  })

  it("an UnexpectedKnownError or UnsupportedKnownError carrying a member's code is not a member", () => {
    const inner = KnownErrors.ProviderRejected.make({})
    const unexpected = new UnexpectedKnownError({ message: inner.message, code: inner.code, status: inner.status, error: inner })
    const unsupported = new UnsupportedKnownError({ message: "m", code: "PROVIDER_REJECTED", status: 401, details: {} })
    expect(KnownErrors.isRefreshTokenError(unexpected)).toBe(false)
    expect(KnownErrors.isRefreshTokenError(unsupported)).toBe(false)
    expect(KnownErrors.isRefreshTokenError(unexpected.error)).toBe(true)
  })

  it.each(Object.entries(families))("%s: the codes are exactly the codes of the instances the guard accepts", (_, { codes, is }) => {
    const accepted = KnownErrors.all.filter((cls) => is(new cls({ message: "m", details: {} }))).map((cls) => cls.code)
    expect(new Set(accepted)).toEqual(codes)
    expect(accepted.length).toBe(codes.size)
  })
})

describe("the catalogue lists each class once (no repeated lists)", () => {
  const source = readFileSync(new URL("../../src/core/KnownErrors.ts", import.meta.url), "utf8")
  const catalogued = new Set<unknown>(KnownErrors.all)
  /** Every class the module exports (a function with a details schema), by name. */
  const exportedClasses = Object.entries(KnownErrors).filter(
    ([, value]) => typeof value === "function" && "detailsSchema" in value
  )

  it("every exported class is in the registry, and the registry holds each class once", () => {
    expect(exportedClasses.length).toBe(KnownErrors.all.length)
    expect(catalogued.size).toBe(KnownErrors.all.length)
    for (const [name, cls] of exportedClasses) expect(catalogued.has(cls), name).toBe(true)
  })

  /** The module's code without comments and string literals (the `_tag` argument is a string). */
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, "\"\"")
    .replace(/\/\/.*$/gm, "")

  it.each(exportedClasses.map(([name]) => name))("%s is named in code twice only: its declaration and its one list", (name) => {
    expect(code.match(new RegExp(`\\b${name}\\b`, "g"))?.length).toBe(2)
  })
})
