/**
 * `@simplewebauthn/server` is an optional peer dependency, used only by the emulator's passkey
 * routes. Here it is "not installed" (its import fails): the emulator still imports and serves
 * everything else, and a passkey ceremony dies with a defect naming the package (logged; a 500).
 */
import { Cause, Effect, Exit, Logger, Result } from "effect"
import { describe, expect, it, vi } from "vitest"
import * as Passkeys from "../../src/emulator/Passkeys.js"
import { clientHeaders, makeEmulator, send } from "./helpers.js"

vi.mock("@simplewebauthn/server", () => {
  throw new Error("Cannot find package '@simplewebauthn/server' imported from stack-auth-effect")
})

describe("the emulator without @simplewebauthn/server installed", () => {
  it("importing the emulator without @simplewebauthn/server works and password sign-up is served", async () => {
    const answer = await Effect.runPromise(
      Effect.gen(function* () {
        const emulator = yield* makeEmulator()
        return yield* send(emulator, {
          method: "POST",
          path: "/api/v1/auth/password/sign-up",
          headers: clientHeaders(emulator.demo),
          body: { email: "no-webauthn@example.com", password: "correct horse battery" }
        })
      })
    )
    expect(answer.status).toBe(200)
    expect(typeof answer.json.access_token).toBe("string")
  })

  it("a passkey ceremony without @simplewebauthn/server dies with MissingOptionalDependency naming the package", async () => {
    const exit = await Effect.runPromiseExit(Passkeys.authenticationOptions())
    expect(Exit.isFailure(exit)).toBe(true)
    const defect = Exit.isFailure(exit) ? Result.getOrUndefined(Cause.findDefect(exit.cause)) : undefined
    expect(defect).toBeInstanceOf(Passkeys.MissingOptionalDependency)
    const missing = defect as Passkeys.MissingOptionalDependency
    expect(missing.packageName).toBe("@simplewebauthn/server")
    expect(missing.message).toContain("npm install --save-dev @simplewebauthn/server")
  })

  it("a passkey route without @simplewebauthn/server answers 500 and logs the message naming the package", async () => {
    const logged: Array<string> = []
    const capture = Logger.layer([
      Logger.make(({ cause, message }) => {
        logged.push(`${String(message)} ${Cause.pretty(cause)}`)
      })
    ])
    const answer = await Effect.runPromise(
      Effect.gen(function* () {
        const emulator = yield* makeEmulator()
        const project = yield* emulator.createProject({ displayName: "passkeys on", config: { passkeyEnabled: true } }).pipe(Effect.orDie)
        return yield* send(emulator, {
          method: "POST",
          path: "/api/v1/auth/passkey/initiate-passkey-authentication",
          headers: clientHeaders(project),
          body: {}
        })
      }).pipe(Effect.provide(capture))
    )
    expect(answer.status).toBe(500)
    expect(logged.filter((line) => line.includes("@simplewebauthn/server"))).toHaveLength(1)
  })
})
