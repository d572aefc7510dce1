/**
 * End to end over real HTTP against the emulator server: a signed-in user whose e-mail is verified
 * changes its primary e-mail with `Users.updateCurrent`; the old address stays as a verified,
 * non-primary channel used for sign-in (the service's `users/crud.tsx` `onUpdate` at
 * stack-auth/stack-auth 2f719903: see test/emulator/conformancePrimaryEmailChange.test.ts), and
 * the user still signs in with it.
 */
import { ManagedRuntime, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import * as Users from "../../src/users/Users.js"
import { useServer } from "./support.js"

const main = useServer()

describe("changing the primary e-mail over HTTP", () => {
  it("keeps the old address as a verified non-primary channel that still signs in", async () => {
    const demo = main.server.emulator.demo
    const client = ManagedRuntime.make(
      Stack.layerClient({ projectId: demo.projectId, publishableClientKey: demo.publishableClientKey, baseUrl: main.server.baseUrl })
    )
    const server = ManagedRuntime.make(
      Stack.layerServer({
        projectId: demo.projectId,
        publishableClientKey: demo.publishableClientKey,
        secretServerKey: demo.secretServerKey,
        baseUrl: main.server.baseUrl
      })
    )
    try {
      const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`
      const old = `e2e-old-${stamp}@example.com`
      const fresh = `e2e-new-${stamp}@example.com`
      await client.runPromise(Password.signUpWithPassword({ email: old, password: "correct horse battery", noVerificationCallback: true }))
      const me = Option.getOrThrow(await client.runPromise(Users.getCurrent()))
      await server.runPromise(ServerUsers.update(me.id, { primaryEmailVerified: true }))

      await client.runPromise(Users.updateCurrent({ primaryEmail: fresh }))
      const channels = await client.runPromise(ContactChannels.list())
      expect(channels.map((c) => [c.value, c.isPrimary, c.isVerified, c.usedForAuth]).sort()).toEqual([
        [old, false, true, true],
        [fresh, true, false, true]
      ].sort())

      await client.runPromise(Password.signInWithPassword({ email: old, password: "correct horse battery" }))
      const again = Option.getOrThrow(await client.runPromise(Users.getCurrent()))
      expect([again.id, again.primaryEmail]).toEqual([me.id, fresh])
    } finally {
      await client.dispose()
      await server.dispose()
    }
  })
})
