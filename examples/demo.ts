/**
 * The terminal walkthrough (`npm run demo`; `npm start` runs the React demo app instead): starts
 * the embedded emulator on 127.0.0.1, walks through the SDK's
 * main flows against it over HTTP, then keeps the emulator running so you can try your own
 * code against it (Ctrl-C stops it). `--once` exits after the walkthrough; `--port N` picks the
 * port (default 8102, 0 = any free port).
 */
import { Effect, Layer, Option, Redacted } from "effect"
import { Password, Session, Sessions, Stack, Users } from "stack-auth-effect"
import { serve } from "stack-auth-effect/emulator/server"

const args = process.argv.slice(2)
const flag = (name: string) => {
  const index = args.indexOf(name)
  return index === -1 ? undefined : args[index + 1]
}
const once = args.includes("--once")
const port = Number(flag("--port") ?? 8102)

const step = (text: string) => Effect.sync(() => console.log(`  • ${text}`))

const walkthrough = Effect.gen(function* () {
  const email = `ada-${Date.now()}@example.com`
  const password = "correct horse battery"
  yield* Password.signUpWithPassword({ email, password, verificationCallbackUrl: "http://localhost:3000/handler/email-verification" })
  yield* step(`signed up ${email}`)
  const signedUp = yield* Users.getCurrent()
  yield* step(`current user: ${Option.match(signedUp, { onNone: () => "none", onSome: (u) => `${u.id} (${u.primaryEmail})` })}`)
  const updated = yield* Users.updateCurrent({ displayName: "Ada Lovelace" })
  yield* step(`display name is now "${updated.displayName}"`)
  yield* Sessions.signOut()
  yield* step(`signed out: current user is ${Option.isNone(yield* Users.getCurrent()) ? "none" : "still there"}`)
  const wrong = yield* Effect.flip(Password.signInWithPassword({ email, password: "not the password" }))
  yield* step(`a wrong password fails with the typed error ${wrong._tag}: "${wrong.message}"`)
  yield* Password.signInWithPassword({ email, password })
  const session = yield* Session.Session
  const tokens = yield* session.current
  yield* step(`signed in again; tokens are redacted when printed: ${String(Option.getOrUndefined(tokens.accessToken))}`)
  yield* session.markAccessTokenExpired(Option.getOrThrow(tokens.accessToken))
  const afterRefresh = yield* Users.getCurrent()
  const refreshed = yield* session.current
  yield* step(
    `after the access token was marked expired, one refresh gave a new one (${
      Redacted.value(Option.getOrThrow(refreshed.accessToken)) !== Redacted.value(Option.getOrThrow(tokens.accessToken)) ? "new" : "same"
    } token) and the user is ${Option.getOrThrow(afterRefresh).displayName}`
  )
})

const main = Effect.gen(function* () {
  const server = yield* serve({ port, emulatorOptions: {} })
  const demo = server.emulator.demo
  console.log(`Stack Auth emulator listening on ${server.baseUrl}`)
  console.log(`Demo project ${demo.projectId}`)
  console.log(`  publishable client key  ${demo.publishableClientKey}`)
  console.log(`  secret server key       ${demo.secretServerKey}`)
  console.log(`  super secret admin key  ${demo.superSecretAdminKey}`)
  console.log("\nWalkthrough (stack-auth-effect over HTTP):")
  yield* walkthrough.pipe(
    Effect.provide(
      Stack.layerClient({ projectId: demo.projectId, publishableClientKey: demo.publishableClientKey, baseUrl: server.baseUrl })
    )
  )
  console.log("\nDone.")
  if (!once) {
    console.log(`The emulator keeps running on ${server.baseUrl} — press Ctrl-C to stop.`)
    yield* Effect.never
  }
}).pipe(Effect.scoped)

Effect.runPromise(main.pipe(Effect.provide(Layer.empty))).then(
  () => process.exit(0),
  (error: unknown) => {
    console.error("The demo failed:", error)
    process.exit(1)
  }
)
