/**
 * The page of the two-tab test (bundled by esbuild): counts reads of `document.cookie`, builds a
 * client runtime over the browser cookie store against the emulator, and exposes what the test
 * drives and reads on `window.crossTab`.
 */
import { Effect, ManagedRuntime, Stream } from "effect"
import * as Password from "../../../src/auth/Password.js"
import { Session } from "../../../src/core/Session.js"
import * as Stack from "../../../src/Stack.js"
import * as Users from "../../../src/users/Users.js"

const params = new URLSearchParams(location.search)
let cookieReads = 0
const descriptor = Object.getOwnPropertyDescriptor(Document.prototype, "cookie")!
Object.defineProperty(Document.prototype, "cookie", {
  configurable: true,
  get(this: Document) {
    cookieReads += 1
    return descriptor.get!.call(this) as string
  },
  set(this: Document, value: string) {
    descriptor.set!.call(this, value)
  }
})

const crossTab = params.get("crossTab") === "poll" ? "poll" : "broadcast"
const runtime = ManagedRuntime.make(
  Stack.layerClient({
    projectId: params.get("projectId")!,
    publishableClientKey: params.get("key")!,
    baseUrl: params.get("api")!,
    tokenStore: (await import("../../../src/session/BrowserCookieStore.js")).layer({ projectId: params.get("projectId")!, crossTab })
  })
)

/** Users seen after each change of the session (e-mail, or "nobody"). */
const seen: Array<string> = []

void runtime.runPromise(
  Effect.flatMap(Session, (session) =>
    session.changes.pipe(
      Stream.runForEach(() =>
        Effect.map(Users.getCurrent(), (user) => {
          seen.push(user._tag === "Some" ? (user.value.primaryEmail ?? "?") : "nobody")
        })
      )
    ))
)

await runtime.context()

const api = {
  ready: true,
  seen,
  cookieReads: () => cookieReads,
  signIn: (email: string, password: string) => runtime.runPromise(Password.signInWithPassword({ email, password })).then(() => "signed-in"),
  signOut: () => runtime.runPromise(Effect.flatMap(Session, (session) => session.clear)).then(() => "signed-out")
}
;(window as unknown as { crossTab: typeof api }).crossTab = api
