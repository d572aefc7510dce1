/**
 * Issue 11 (A): signing in must never land in another user's account through a contact channel
 * that user added but never verified. An attacker adds `victim@…` to their own account as an
 * unverified channel used for auth; when the victim later signs in with OAuth or a magic link /
 * OTP as that address, the emulator must refuse (as the service does), not join the attacker's
 * account. In process and over real HTTP (the Node server).
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"
import type { Answer } from "./helpers.js"
import { clientHeaders, makeEmulator, send, serverHeaders, signUp } from "./helpers.js"
import { authorizeQuery, defaultRedirectUri, exchange, pkce, runFlow } from "./oauthFlow.js"

const attackerEmail = "mallory@example.com"
const victimEmail = "victim@example.com"

/**
 * The attacker: signed up with a password, primary e-mail verified (through the server API), and
 * `victim@example.com` added as an UNVERIFIED channel used for auth (client access, own token).
 */
const prepareAttacker = (emulator: Emulator.Emulator, options: { readonly verifyVictimChannel?: boolean } = {}) =>
  Effect.gen(function* () {
    const tokens = yield* signUp(emulator, emulator.demo, attackerEmail)
    const verified = yield* send(emulator, {
      method: "PATCH",
      path: `/api/v1/users/${tokens.user_id}`,
      headers: serverHeaders(emulator.demo),
      body: { primary_email_verified: true }
    })
    expect(verified.status).toBe(200)
    const channel = yield* send(emulator, {
      method: "POST",
      path: "/api/v1/contact-channels",
      headers: clientHeaders(emulator.demo, { "x-stack-access-token": tokens.access_token }),
      body: { user_id: "me", type: "email", value: victimEmail, used_for_auth: true }
    })
    expect(channel.status).toBe(201)
    expect(channel.json).toMatchObject({ value: victimEmail, is_verified: false, used_for_auth: true })
    if (options.verifyVictimChannel === true) {
      const patched = yield* send(emulator, {
        method: "PATCH",
        path: `/api/v1/contact-channels/${tokens.user_id}/${channel.json.id}`,
        headers: serverHeaders(emulator.demo),
        body: { is_verified: true }
      })
      expect(patched.json.is_verified).toBe(true)
    }
    return tokens.user_id
  })

const oauthConnectionsOf = (emulator: Emulator.Emulator, userId: string) =>
  emulator.state.projects.get(emulator.demo.projectId)!.users.get(userId)!.oauthAccounts.length

describe("sign-in through an unverified contact channel (in process)", () => {
  it.effect("OAuth never signs in to an account through an unverified channel: the merge is refused", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const attackerId = yield* prepareAttacker(emulator)
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: victimEmail })
      expect(flow.location.searchParams.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE")
      expect(JSON.parse(flow.location.searchParams.get("details")!)).toEqual({
        type: "email",
        contact_channel_value: victimEmail,
        would_work_if_email_was_verified: true
      })
      expect(flow.code).toBe("")
      // the victim's provider account was not linked to the attacker's user
      expect(oauthConnectionsOf(emulator, attackerId)).toBe(0)
    }))

  it.effect("OAuth joins an existing account through a secondary channel only once that channel is verified", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const ownerId = yield* prepareAttacker(emulator, { verifyVictimChannel: true })
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: victimEmail })
      const answer = yield* exchange(emulator, emulator.demo, flow)
      expect(answer.status).toBe(200)
      expect(answer.json.is_new_user).toBe(false)
      expect(oauthConnectionsOf(emulator, ownerId)).toBe(1)
    }))

  it.effect("oauth_account_merge_strategy raise_error refuses the merge even through a verified channel", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { oauthAccountMergeStrategy: "raise_error" } } })
      const ownerId = yield* prepareAttacker(emulator, { verifyVictimChannel: true })
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: victimEmail })
      expect(flow.location.searchParams.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE")
      expect(JSON.parse(flow.location.searchParams.get("details")!).would_work_if_email_was_verified).toBe(false)
      expect(oauthConnectionsOf(emulator, ownerId)).toBe(0)
    }))

  it.effect("oauth_account_merge_strategy allow_duplicates creates a new user instead of joining the channel's owner", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { oauthAccountMergeStrategy: "allow_duplicates" } } })
      const ownerId = yield* prepareAttacker(emulator)
      const flow = yield* runFlow(emulator, { project: emulator.demo, email: victimEmail })
      const answer = yield* exchange(emulator, emulator.demo, flow)
      expect(answer.status).toBe(200)
      expect(answer.json.is_new_user).toBe(true)
      const me = yield* send(emulator, {
        path: "/api/v1/users/me",
        headers: clientHeaders(emulator.demo, { "x-stack-access-token": answer.json.access_token })
      })
      expect(me.json.id).not.toBe(ownerId)
      expect(me.json).toMatchObject({ primary_email: victimEmail, auth_with_email: false })
      expect(oauthConnectionsOf(emulator, ownerId)).toBe(0)
    }))

  it.effect("a magic link / OTP is never sent to, nor signs in through, an unverified channel of another account", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { magicLinkEnabled: true } } })
      yield* prepareAttacker(emulator)
      const answer = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/otp/send-sign-in-code",
        headers: clientHeaders(emulator.demo),
        body: { email: victimEmail, callback_url: "http://localhost:3000/handler/magic-link-callback" }
      })
      expect(answer.status).toBe(409)
      expect(answer.headers.get("x-stack-known-error")).toBe("USER_EMAIL_ALREADY_EXISTS")
      expect(answer.json.details).toEqual({ email: victimEmail, would_work_if_email_was_verified: true })
      expect(emulator.outbox({ email: victimEmail })).toHaveLength(0)
    }))

  it.effect("a magic link signs in to the channel's owner once that channel is verified", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({ demo: { config: { magicLinkEnabled: true } } })
      const ownerId = yield* prepareAttacker(emulator, { verifyVictimChannel: true })
      const sent = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/otp/send-sign-in-code",
        headers: clientHeaders(emulator.demo),
        body: { email: victimEmail, callback_url: "http://localhost:3000/handler/magic-link-callback" }
      })
      expect(sent.status).toBe(200)
      const code = emulator.latestEmail({ email: victimEmail })!.code!
      const signedIn = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/otp/sign-in",
        headers: clientHeaders(emulator.demo),
        body: { code }
      })
      expect(signedIn.status).toBe(200)
      expect(signedIn.json).toMatchObject({ user_id: ownerId, is_new_user: false })
    }))
})

// ---------------------------------------------------------------------------------------------
// Over real HTTP

const http = async (server: RunningServer, path: string, init: RequestInit = {}): Promise<Answer> => {
  const response = await fetch(`${server.baseUrl}${path}`, { redirect: "manual", ...init })
  const text = await response.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

describe("sign-in through an unverified contact channel (over HTTP)", () => {
  let server: RunningServer
  let stop: () => Promise<void>
  beforeAll(async () => {
    const started = await startServer({ passwordHashIterations: 1000, demo: { config: { magicLinkEnabled: true } } })
    server = started.server
    stop = started.stop
    await Effect.runPromise(prepareAttacker(server.emulator))
  })
  afterAll(() => stop())

  it("OAuth over HTTP refuses to sign the victim in to the account holding their address unverified", async () => {
    const { challenge } = pkce()
    const start = await http(server, `/api/v1/auth/oauth/authorize/github?${authorizeQuery({ project: server.emulator.demo }, challenge).toString()}`)
    expect(start.status).toBe(200)
    const provider = new URL(start.json.location as string)
    expect(provider.origin).toBe(server.baseUrl)
    const approved = await http(server, `${provider.pathname}${provider.search}&auto=1&email=${encodeURIComponent(victimEmail)}`)
    expect(approved.status).toBe(303)
    const back = new URL(approved.headers.get("location")!)
    const callback = await http(server, `${back.pathname}${back.search}`)
    expect(callback.status).toBe(303)
    const landed = new URL(callback.headers.get("location")!)
    expect(`${landed.origin}${landed.pathname}`).toBe(defaultRedirectUri)
    expect(landed.searchParams.get("errorCode")).toBe("CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE")
    expect(landed.searchParams.get("code")).toBeNull()
    const attacker = [...server.emulator.state.projects.get(server.emulator.demo.projectId)!.users.values()].find(
      (user) => user.primaryEmail === attackerEmail
    )!
    expect(attacker.oauthAccounts).toEqual([])
  })

  it("a magic link over HTTP is refused for an address another account holds unverified, and nothing is e-mailed", async () => {
    const answer = await http(server, "/api/v1/auth/otp/send-sign-in-code", {
      method: "POST",
      headers: { ...clientHeaders(server.emulator.demo), "content-type": "application/json" },
      body: JSON.stringify({ email: victimEmail, callback_url: "http://localhost:3000/handler/magic-link-callback" })
    })
    expect(answer.status).toBe(409)
    expect(answer.headers.get("x-stack-known-error")).toBe("USER_EMAIL_ALREADY_EXISTS")
    const outbox = await http(server, `/api/v1/emulator/outbox?email=${encodeURIComponent(victimEmail)}`)
    expect(outbox.json.items).toEqual([])
  })
})
