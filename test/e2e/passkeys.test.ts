/**
 * End to end over real HTTP against the emulator server: a project with passkeys on, a user who
 * registers a passkey with the software authenticator as its browser and signs in with it on
 * another device (the passkey is discoverable: no e-mail is typed), plus the refusals the wire
 * carries (bad signature, disabled project) and the TOTP second step.
 */
import type { Context, Scope } from "effect"
import { Effect, Layer, Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Mfa from "../../src/auth/Mfa.js"
import * as Passkeys from "../../src/auth/Passkeys.js"
import * as Password from "../../src/auth/Password.js"
import * as Totp from "../../src/auth/Totp.js"
import type { WebAuthnBrowser } from "../../src/auth/WebAuthnBrowser.js"
import type { ProjectCredentials } from "../../src/emulator/Emulator.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { Session } from "../../src/session/Session.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { SoftwareAuthenticator } from "../support/softwareAuthenticator.js"
import { countingFetch, startServer } from "./support.js"

let main: { server: RunningServer; stop: () => Promise<void> }
let project: ProjectCredentials

beforeAll(async () => {
  main = await startServer({ demo: { config: { passkeyEnabled: false } } })
  project = await Effect.runPromise(main.server.emulator.createProject({ displayName: "Passkeys E2E", config: { passkeyEnabled: true } }))
})
afterAll(async () => {
  await main?.stop()
})

const password = "correct horse battery"
const uniqueEmail = (label: string) => `e2e-pk-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`

/** A browser of a project over real fetch, with its own session and the given authenticator. */
const browser = (authenticator: SoftwareAuthenticator, credentials: ProjectCredentials = project) =>
  Effect.gen(function* () {
    const fetch = countingFetch()
    const layer = Layer.merge(
      Stack.layerClient({
        projectId: credentials.projectId,
        publishableClientKey: credentials.publishableClientKey,
        baseUrl: main.server.baseUrl,
        httpClient: fetch.layer
      }),
      authenticator.layer
    )
    const context: Context.Context<Stack.ClientServices | WebAuthnBrowser> = yield* Layer.build(layer).pipe(Effect.orDie)
    return { context, count: fetch.count }
  })

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) => Effect.runPromise(Effect.scoped(effect) as Effect.Effect<A, unknown>)

describe("passkeys end to end (real HTTP)", () => {
  it("registers a passkey on one device and signs in with it on another", () =>
    run(
      Effect.gen(function* () {
        const authenticator = new SoftwareAuthenticator()
        const laptop = yield* browser(authenticator)
        const { userId } = yield* Password.signUpWithPassword({ email: uniqueEmail("a"), password, noVerificationCallback: true }).pipe(
          Effect.provide(laptop.context)
        )
        const { userHandle } = yield* Passkeys.register().pipe(Effect.provide(laptop.context))
        expect(userHandle).toBe(authenticator.credentials[0]!.id)
        expect(laptop.count("POST /auth/passkey/initiate-passkey-registration")).toBe(1)
        expect(laptop.count("POST /auth/passkey/register")).toBe(1)
        const me = yield* Users.getCurrent().pipe(Effect.provide(laptop.context))
        expect(Option.map(me, (user) => user.passkeyAuthEnabled)).toEqual(Option.some(true))

        // the same authenticator (a synced passkey) on a second, signed-out device
        const phone = yield* browser(authenticator)
        const signedIn = yield* Passkeys.signIn().pipe(Effect.provide(phone.context))
        expect(signedIn).toEqual({ userId })
        const tokens = yield* Effect.flatMap(Session, (session) => session.current).pipe(Effect.provide(phone.context))
        expect(Option.isSome(tokens.accessToken)).toBe(true)
        const user = yield* Users.getCurrent().pipe(Effect.provide(phone.context))
        expect(Option.map(user, (u) => u.id)).toEqual(Option.some(userId))
        expect(phone.count("POST /auth/passkey/initiate-passkey-authentication")).toBe(1)
        expect(phone.count("POST /auth/passkey/sign-in")).toBe(1)
      })
    ))

  it("refuses an assertion signed by another key, and a project without passkeys", () =>
    run(
      Effect.gen(function* () {
        const authenticator = new SoftwareAuthenticator()
        const device = yield* browser(authenticator)
        yield* Password.signUpWithPassword({ email: uniqueEmail("b"), password, noVerificationCallback: true }).pipe(Effect.provide(device.context))
        yield* Passkeys.register().pipe(Effect.provide(device.context))
        authenticator.signWithForeignKey = true
        const other = yield* browser(authenticator)
        const error = yield* Effect.flip(Passkeys.signIn().pipe(Effect.provide(other.context)))
        expect(error).toMatchObject({ _tag: "PasskeyAuthenticationFailed", status: 400 })

        const demo = yield* browser(new SoftwareAuthenticator(), main.server.emulator.demo)
        const disabled = yield* Effect.flip(Passkeys.signIn().pipe(Effect.provide(demo.context)))
        expect(disabled._tag).toBe("PasskeyAuthenticationNotEnabled")
      })
    ))

  it("a user with TOTP finishes a passkey sign-in with Mfa.signIn", () =>
    run(
      Effect.gen(function* () {
        const authenticator = new SoftwareAuthenticator()
        const device = yield* browser(authenticator)
        const { userId } = yield* Password.signUpWithPassword({ email: uniqueEmail("c"), password, noVerificationCallback: true }).pipe(
          Effect.provide(device.context)
        )
        yield* Passkeys.register().pipe(Effect.provide(device.context))
        const { secret } = yield* Mfa.enableTotp().pipe(Effect.provide(device.context))
        const other = yield* browser(authenticator)
        const done = yield* Passkeys.signIn().pipe(
          Effect.catchTag("MultiFactorAuthenticationRequired", (error) =>
            Effect.flatMap(Totp.generate(Redacted.value(secret)), (totp) => Mfa.signIn({ attemptCode: error.details.attempt_code, totp }))),
          Effect.provide(other.context)
        )
        expect(done.userId).toBe(userId)
        expect(other.count("POST /auth/mfa/sign-in")).toBe(1)
      })
    ))
})
