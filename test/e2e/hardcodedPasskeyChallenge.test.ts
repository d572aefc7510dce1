/**
 * End to end over real HTTP: an emulator server started with `hardcodedPasskeyChallenge` (the
 * service's `STACK_ENABLE_HARDCODED_PASSKEY_CHALLENGE_FOR_TESTING`, `auth/passkey/initiate-passkey-*`
 * at stack-auth/stack-auth 2f719903: see test/emulator/conformanceHardcodedPasskeyChallenge.test.ts)
 * hands the SDK's passkey ceremonies the challenge `MOCK`; registration and sign-in go through.
 */
import type { Context } from "effect"
import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import * as Passkeys from "../../src/auth/Passkeys.js"
import * as Password from "../../src/auth/Password.js"
import type { WebAuthnBrowser } from "../../src/auth/WebAuthnBrowser.js"
import * as Stack from "../../src/Stack.js"
import { SoftwareAuthenticator } from "../support/softwareAuthenticator.js"
import { useServer } from "./support.js"

const main = useServer({ hardcodedPasskeyChallenge: true })

describe("the hard-coded passkey challenge over HTTP", () => {
  it("the SDK's registration and sign-in receive the challenge MOCK and succeed", async () => {
    const authenticator = new SoftwareAuthenticator()
    const device = Effect.gen(function* () {
      const layer = Layer.merge(Stack.layerClient(main.credentials()), authenticator.layer)
      return (yield* Layer.build(layer).pipe(Effect.orDie)) as Context.Context<Stack.ClientServices | WebAuthnBrowser>
    })
    const { userId, signedIn } = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const laptop = yield* device
          const { userId } = yield* Password.signUpWithPassword({
            email: `e2e-mock-challenge-${Date.now()}@example.com`,
            password: "correct horse battery",
            noVerificationCallback: true
          }).pipe(Effect.provide(laptop))
          yield* Passkeys.register().pipe(Effect.provide(laptop))
          const phone = yield* device
          const signedIn = yield* Passkeys.signIn().pipe(Effect.provide(phone))
          return { userId, signedIn }
        })
      )
    )
    expect(signedIn).toEqual({ userId })
    const mock = Buffer.from("MOCK").toString("base64url")
    expect(authenticator.creations.map((options) => options.challenge)).toEqual([mock])
    expect(authenticator.requests.map((options) => options.challenge)).toEqual([mock])
  })
})
