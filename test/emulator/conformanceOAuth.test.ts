/**
 * Conformance of the emulator's OAuth with the recorded exchanges (test/fixtures/wire-samples/oauth/).
 * Each sample is replayed against a fresh emulator seeded with the samples' project, after
 * replaying the samples that lead up to it (authorize → callback → token…). The provider step
 * between authorize and callback (not recorded) is played against the emulator's mock provider
 * with the e-mail the sample's notes name; recorded codes, states and tokens are replaced with the
 * live ones. Asserted as in `conformance.test.ts`: status, `x-stack-known-error` /
 * `x-stack-actual-status` / `location` headers, content type, and the body's shape.
 *
 * Not replayed: oauth/01 (admin project config) and oauth/02 (project client view) — the emulator
 * has no project routes yet. The samples' GitHub provider used shared keys with a development
 * switch that hands out provider access tokens (samples README); a production service refuses
 * them (OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS) and so does the emulator, so the
 * project here enables GitHub with its own keys: every exchange recorded is then the same.
 *
 * The loading, replay and comparison helpers are shared with the other conformance tests
 * (conformanceSupport.ts).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Emulator } from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import { makeEmulator, send } from "./helpers.js"
import { localPath } from "./oauthFlow.js"
import type { Sample } from "./conformanceSupport.js"
import { compare, load, makeSampleEmulator, passwordSession, replaySample, sampleInstant, samplePassword } from "./conformanceSupport.js"

const projectId = load("oauth/09-connected-accounts-list").request.headers["X-Stack-Project-Id"]!
const publishableClientKey = new URLSearchParams(load("oauth/06-token-authorization-code").request.body as string).get("client_secret")!
const linkUserEmail = (load("oauth/21-me-after-link").response.body as { primary_email: string }).primary_email

/** The e-mail entered at the mock provider before a callback sample (from its notes; oauth/15 is oauth/16's flow). */
const providerEmail = (name: string): string => {
  const notes = load(name === "oauth/15-callback-redirect-mode-without-cookie" ? "oauth/16-callback-redirect-mode" : name).notes ?? ""
  return /login=(\S+@example\.com)/.exec(notes)![1]!
}

// ---------------------------------------------------------------------------------------------
// Replaying chains of samples
// ---------------------------------------------------------------------------------------------

interface Chain {
  readonly emulator: Emulator
  /** Recorded value → live value, applied to the replayed request (see `replaySample`). */
  readonly substitutions: Record<string, string>
  /** The last authorize answer: where the provider is, and the inner cookie of redirect mode. */
  providerUrl: string | undefined
  innerCookie: string | undefined
}

const isAuthorize = (sample: Sample) => sample.request.path.startsWith("/api/v1/auth/oauth/authorize/")
const isCallback = (sample: Sample) => sample.request.path.startsWith("/api/v1/auth/oauth/callback/")

/** Replays one sample in a chain (playing the provider step first for a callback) and learns the live values it hands out. */
const replay = (chain: Chain, name: string): Effect.Effect<Answer> =>
  Effect.gen(function* () {
    const sample = load(name)
    const cookie: Record<string, string> = {}
    if (isCallback(sample)) {
      const recorded = new URL(`http://x${sample.request.path}`).searchParams
      const approved = yield* send(chain.emulator, {
        path: `${localPath(chain.providerUrl!)}&auto=1&email=${encodeURIComponent(providerEmail(name))}`
      })
      const live = new URL(approved.headers.get("location")!).searchParams
      chain.substitutions[recorded.get("code")!] = live.get("code")!
      chain.substitutions[recorded.get("state")!] = live.get("state")!
      if (name === "oauth/16-callback-redirect-mode" && chain.innerCookie !== undefined) cookie["cookie"] = chain.innerCookie
    }
    const answer = yield* replaySample(chain.emulator, sample, chain.substitutions, cookie)
    if (isAuthorize(sample) && answer.status < 400) {
      chain.providerUrl = answer.headers.get("location") ?? answer.json?.location
      chain.innerCookie = answer.headers.get("set-cookie")?.split(";")[0]
    }
    if (isCallback(sample) && answer.status === 303) {
      const recordedCode = new URL(sample.response.headers["location"]!).searchParams.get("code")!
      chain.substitutions[recordedCode] = new URL(answer.headers.get("location")!).searchParams.get("code")!
    }
    if (sample.request.path === "/api/v1/auth/oauth/token" && answer.status === 200) {
      chain.substitutions["<access-token>"] = answer.json.access_token
    }
    return answer
  })

const signUpLinkUser = (chain: Chain) =>
  Effect.gen(function* () {
    const tokens = yield* passwordSession(chain.emulator, { projectId, publishableClientKey }, "sign-up", {
      email: linkUserEmail,
      password: samplePassword
    })
    const recordedToken = new URL(`http://x${load("oauth/18-authorize-link").request.path}`).searchParams.get("token")!
    chain.substitutions[recordedToken] = tokens.access_token
    chain.substitutions["<access-token>"] = tokens.access_token
  })

const signUpFlow = ["oauth/03-authorize-json-mode", "oauth/04-callback-json-mode", "oauth/06-token-authorization-code"]
const linkFlow = ["oauth/18-authorize-link", "oauth/19-callback-link", "oauth/20-token-link"]

/** The live `location` of a redirect points elsewhere than the recorded one: held to its presence. */
const expectations = { presentIff: ["location"] }

/** What each sample needs replayed before it (in order); "link-user" signs the password user of the link flow up. */
const cases: Readonly<Record<string, ReadonlyArray<string>>> = {
  "oauth/03-authorize-json-mode": [],
  "oauth/04-callback-json-mode": ["oauth/03-authorize-json-mode"],
  "oauth/05-token-wrong-code-verifier": ["oauth/03-authorize-json-mode", "oauth/04-callback-json-mode"],
  "oauth/06-token-authorization-code": ["oauth/03-authorize-json-mode", "oauth/04-callback-json-mode", "oauth/05-token-wrong-code-verifier"],
  "oauth/07-token-code-reused": signUpFlow,
  "oauth/08-me-after-oauth-sign-up": signUpFlow,
  "oauth/09-connected-accounts-list": signUpFlow,
  "oauth/10-connected-account-access-token": signUpFlow,
  "oauth/11-connected-account-access-token-extra-scope": signUpFlow,
  "oauth/12-connected-account-access-token-by-account": signUpFlow,
  "oauth/13-connected-account-access-token-unknown-provider": signUpFlow,
  "oauth/14-authorize-redirect-mode": [],
  "oauth/15-callback-redirect-mode-without-cookie": ["oauth/14-authorize-redirect-mode"],
  "oauth/16-callback-redirect-mode": ["oauth/14-authorize-redirect-mode", "oauth/15-callback-redirect-mode-without-cookie"],
  "oauth/17-token-existing-user": [...signUpFlow, "oauth/14-authorize-redirect-mode", "oauth/16-callback-redirect-mode"],
  "oauth/18-authorize-link": ["link-user"],
  "oauth/19-callback-link": ["link-user", "oauth/18-authorize-link"],
  "oauth/20-token-link": ["link-user", "oauth/18-authorize-link", "oauth/19-callback-link"],
  "oauth/21-me-after-link": ["link-user", ...linkFlow],
  "oauth/22-oauth-providers-list": ["link-user", ...linkFlow],
  "oauth/23-authorize-link-without-token": [],
  "oauth/24-authorize-unknown-provider": [],
  "oauth/25-authorize-wrong-publishable-key": [],
  "oauth/26-authorize-untrusted-after-callback-url": [],
  "oauth/27-authorize-missing-code-challenge": []
}

describe("OAuth conformance with the recorded wire samples", () => {
  it("the samples' project and provider e-mails are read from the samples", () => {
    expect(projectId).toMatch(/^[0-9a-f-]{36}$/)
    expect(publishableClientKey).toMatch(/^pck_/)
    expect(providerEmail("oauth/04-callback-json-mode")).toBe("w-oauth-678709ca8b@example.com")
    expect(providerEmail("oauth/19-callback-link")).toBe("w-gh-ba0a4c5401@example.com")
  })

  for (const [name, before] of Object.entries(cases)) {
    it.effect(`${name}: ${load(name).title}`, () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(sampleInstant)
        const emulator = yield* makeSampleEmulator(
          { oauthProviders: [{ id: "github", provider: "github", type: "standard" }] },
          { id: projectId, publishableClientKey }
        )
        const chain: Chain = {
          emulator,
          substitutions: { "<publishable-client-key>": publishableClientKey },
          providerUrl: undefined,
          innerCookie: undefined
        }
        for (const step of before) {
          if (step === "link-user") yield* signUpLinkUser(chain)
          else expect(compare(load(step).response, yield* replay(chain, step), expectations)).toEqual([])
        }
        const answer = yield* replay(chain, name)
        expect(compare(load(name).response, answer, expectations)).toEqual([])
      }))
  }

  it.effect("oauth/14: the redirect-mode cookie is the recorded one (name with the inner state, Path, Max-Age 600, HttpOnly)", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator({
        projects: [{ id: projectId, publishableClientKey, config: { oauthProviders: [{ id: "github", provider: "github", type: "standard" }] } }]
      })
      const answer = yield* send(emulator, { path: load("oauth/14-authorize-redirect-mode").request.path })
      const innerState = new URL(answer.headers.get("location")!).searchParams.get("state")!
      expect(answer.headers.get("set-cookie")).toMatch(
        new RegExp(`^stack-oauth-inner-${innerState.replace(/[-_]/g, "\\$&")}=true; Path=/; Expires=[^;]+; Max-Age=600; HttpOnly$`)
      )
    }))
})
