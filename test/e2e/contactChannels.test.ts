/**
 * End to end over real HTTP against the emulator server: a signed-in user adds an e-mail contact
 * channel, has a code sent (callback URL defaulted from HandlerUrls), reads it from the outbox,
 * verifies it, sees it verified in the list, makes it primary (the user's primary e-mail follows)
 * and deletes the old one.
 */
import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as Stack from "../../src/Stack.js"
import * as HandlerUrls from "../../src/core/HandlerUrls.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const appUrl = "http://localhost:3000"

describe("contact channels over HTTP", () => {
  it("create → send code → outbox → verify → list verified → make primary → delete", async () => {
    const fetch = countingFetch()
    const runtime = ManagedRuntime.make(
      Layer.merge(
        Stack.layerClient({
          projectId: main.server.emulator.demo.projectId,
          publishableClientKey: main.server.emulator.demo.publishableClientKey,
          baseUrl: main.server.baseUrl,
          httpClient: fetch.layer
        }),
        HandlerUrls.layer({ appUrl })
      )
    )
    try {
      const stamp = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`
      const primary = `e2e-cc-${stamp}@example.com`
      const extra = `e2e-cc-extra-${stamp}@example.com`
      await runtime.runPromise(Password.signUpWithPassword({ email: primary, password: "correct horse battery", noVerificationCallback: true }))

      const created = await runtime.runPromise(ContactChannels.create({ value: extra, usedForAuth: false }))
      expect(created).toMatchObject({ value: extra, isVerified: false, isPrimary: false })
      await runtime.runPromise(ContactChannels.sendVerificationCode(created.id))
      expect(fetch.count(`POST /contact-channels/me/${created.id}/send-verification-code`)).toBe(1)

      const email = main.server.emulator.latestEmail({ email: extra })
      expect(email?.link?.startsWith(`${appUrl}/handler/email-verification?code=`)).toBe(true)
      const code = new URL(email!.link!).searchParams.get("code")!
      await runtime.runPromise(ContactChannels.verify(code))
      expect(fetch.count("POST /contact-channels/verify")).toBe(1)

      const afterVerify = await runtime.runPromise(ContactChannels.list())
      expect(afterVerify.map((c) => [c.value, c.isPrimary, c.isVerified])).toEqual([
        [primary, true, false],
        [extra, false, true]
      ])

      await runtime.runPromise(ContactChannels.update(created.id, { isPrimary: true }))
      const user = Option.getOrThrow(await runtime.runPromise(Users.getCurrent()))
      expect([user.primaryEmail, user.primaryEmailVerified]).toEqual([extra, true])

      const old = (await runtime.runPromise(ContactChannels.list())).find((c) => c.value === primary)!
      expect(old.isPrimary).toBe(false)
      await runtime.runPromise(ContactChannels.delete(old.id))
      const remaining = await runtime.runPromise(ContactChannels.list())
      expect(remaining.map((c) => [c.id, c.isPrimary, c.isVerified])).toEqual([[created.id, true, true]])

      const again = await runtime.runPromise(Effect.result(ContactChannels.delete(old.id)))
      expect(again._tag === "Failure" && again.failure._tag).toBe("ContactChannelNotFound")
    } finally {
      await runtime.dispose()
    }
  })
})
