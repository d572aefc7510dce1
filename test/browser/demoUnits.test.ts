/**
 * The demo app's own modules without a browser: the error-to-sentence mapping
 * (examples/react-app/src/messages.ts), the input checks, the reachability store fed by the app's
 * HTTP client (src/connectivity.ts, against a real local server and a closed port), and the list
 * of packages Vite pre-bundles (dependencies.ts).
 */
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as HttpClient from "effect/http/HttpClient"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Errors, KnownErrors } from "../../src/index.js"
import { CliInvalidLoginCode } from "../../src/auth/Cli.js"
import { prebundledDependencies } from "../../examples/react-app/server.js"
import { currentConnectivity, layerObservedFetch } from "../../examples/react-app/src/connectivity.js"
import { checkEmail, checkNewPassword, describeError, isNetworkFailure } from "../../examples/react-app/src/messages.js"

describe("demo app: messages for people", () => {
  it("a known error is a sentence, never the service's message; its tag goes to the details line", () => {
    const error = new KnownErrors.EmailPasswordMismatch({ message: "Wrong e-mail or password.", details: {} })
    expect(describeError(error)).toEqual({ text: "Wrong e-mail or password.", tag: "EmailPasswordMismatch" })
    const schema = KnownErrors.SchemaError.make({
      message: "Request validation failed on POST /api/v1/auth/password/sign-up:\n  - body.email must be a valid email"
    })
    const described = describeError(schema)
    expect(described.tag).toBe("SchemaError")
    expect(described.text).not.toContain("Request validation failed")
    expect(described.text).not.toContain("/api/v1")
  })

  it("a transport failure says what the person can do, without the URL", () => {
    const down = new Errors.ConnectivityError({
      message: "Failed to send request to http://127.0.0.1:8102/api/v1/users/me",
      method: "GET",
      url: "http://127.0.0.1:8102/api/v1/users/me",
      cause: null
    })
    expect(describeError(down).text).toBe("We can't reach the server. Check your connection and try again.")
    expect(isNetworkFailure(down)).toBe(true)
    const http = new Errors.HttpError({
      message: "400 Invalid login code…",
      status: 400,
      body: "Invalid login code",
      method: "POST",
      url: "http://127.0.0.1:8102/x"
    })
    expect(describeError(http).text).not.toContain("http")
    expect(isNetworkFailure(http)).toBe(false)
    expect(isNetworkFailure({ ...http, status: 503 })).toBe(true)
  })

  it("the CLI's typed invalid-login-code error has its own sentence", () => {
    expect(describeError(CliInvalidLoginCode.make())).toEqual({
      text: "This login link is not valid or has expired. Start the login again from your terminal.",
      tag: "CliInvalidLoginCode"
    })
  })

  it("a screen rewords a tag (a wrong current password is PasswordConfirmationMismatch on Change password)", () => {
    const error = new KnownErrors.PasswordConfirmationMismatch({ message: "Passwords do not match.", details: {} })
    expect(describeError(error).text).toBe("The passwords do not match.")
    expect(describeError(error, { PasswordConfirmationMismatch: "Your current password is not correct." }).text).toBe("Your current password is not correct.")
  })

  it("an UnexpectedKnownError is described by the error it carries; grouped errors by their reason's tag", () => {
    const inner = new KnownErrors.TeamNotFound({ message: "Team not found.", details: { team_id: "t" } })
    const unexpected = new Errors.UnexpectedKnownError({ message: inner.message, code: inner.code, status: 404, error: inner })
    expect(describeError(unexpected)).toEqual({ text: "This team no longer exists.", tag: "UnexpectedKnownError › TeamNotFound" })
    const grouped = { _tag: "SessionError", message: "x", reason: { _tag: "TokenStoreError" } }
    expect(describeError(grouped)).toEqual({ text: "Your session could not be read. Please sign in again.", tag: "SessionError › TokenStoreError" })
    const configuration = { _tag: "ConfigurationError", message: "x", reason: { _tag: "MissingAccessKey" } }
    expect(describeError(configuration).tag).toBe("ConfigurationError › MissingAccessKey")
    expect(describeError(configuration).text).toBe("This app is not set up correctly. Please contact support.")
  })

  it("an OAuth provider's access_denied is the person's own choice; anything unknown gets a general sentence", () => {
    expect(describeError({ _tag: "OAuthCallbackError", message: "m", cause: { error: "access_denied", description: "no" } }).text).toBe(
      "You did not allow the sign-in at your provider."
    )
    expect(describeError({ _tag: "SomethingNew", message: "Internal detail at /api/v1/secret" })).toEqual({
      text: "Something went wrong. Please try again in a moment.",
      tag: "SomethingNew"
    })
    expect(describeError(new Error("boom")).tag).toBeUndefined()
  })

  it("the input checks: an e-mail needs a shape like name@example.com, a new password 8 to 70 characters", () => {
    expect(checkEmail("ada@example.com")).toBeUndefined()
    expect(checkEmail("  ada@example.com ")).toBeUndefined()
    for (const bad of ["", "ada", "ada@", "@example.com", "ada at example.com", "ada@example.", "ada@exa..mple.com"]) expect(checkEmail(bad)).toBeDefined()
    expect(checkNewPassword("1234567")).toBe("Use at least 8 characters.")
    expect(checkNewPassword("12345678")).toBeUndefined()
    expect(checkNewPassword("x".repeat(71))).toBe("Use at most 70 characters.")
  })
})

describe("demo app: the reachability store", () => {
  const get = (url: string) => Effect.flatMap(HttpClient.HttpClient, (client) => client.get(url)).pipe(Effect.scoped, Effect.provide(layerObservedFetch))

  it("the first request without an answer marks the server unreachable; the next answer, whatever its status, reachable again", async () => {
    const server = createServer((_, response) => {
      response.statusCode = 404
      response.end("not here")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as AddressInfo).port
    try {
      await Effect.runPromise(get(`http://127.0.0.1:${port}/`))
      expect(currentConnectivity()).toEqual({ reachable: true, failedAttempts: 0 })
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await Effect.runPromise(Effect.result(get(`http://127.0.0.1:${port}/`)))
      expect(currentConnectivity()).toEqual({ reachable: false, failedAttempts: 1 })
      await Effect.runPromise(Effect.result(get(`http://127.0.0.1:${port}/`)))
      expect(currentConnectivity()).toEqual({ reachable: false, failedAttempts: 2 })
      server.listen(port, "127.0.0.1")
      await new Promise<void>((resolve) => server.once("listening", resolve))
      await Effect.runPromise(get(`http://127.0.0.1:${port}/`))
      expect(currentConnectivity()).toEqual({ reachable: true, failedAttempts: 0 })
    } finally {
      server.close()
    }
  })
})

describe("demo app: what Vite pre-bundles", () => {
  it("every package the page imports, read from the sources: the SDK's deep imports, the passkey library it loads lazily, jose by the subpaths the token verifier uses, the QR code library, the JSX runtimes", () => {
    const packages = prebundledDependencies()
    for (
      const name of [
        "effect/Schema",
        "effect/Effect",
        "effect/http/HttpClient",
        "@simplewebauthn/browser",
        "jose/jws/compact/verify",
        "jose/decode/protected_header",
        "lean-qr",
        "lean-qr/extras/svg",
        "react-dom/client",
        "react/jsx-dev-runtime"
      ]
    ) {
      expect(packages).toContain(name)
    }
    expect(packages.filter((name) => name.startsWith(".") || name.startsWith("node:") || name.startsWith("stack-auth-effect"))).toEqual([])
    expect(new Set(packages).size).toBe(packages.length)
  })
})
