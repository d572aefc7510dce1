import { Clock, Duration, Effect, Fiber, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { UnsecuredJWT } from "jose"
import { setupServer } from "msw/node"
import * as RetryPolicy from "../../src/core/RetryPolicy.js"
import * as StackClient from "../../src/core/StackClient.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import * as Session from "../../src/session/Session.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import type { StoredTokens } from "../../src/session/TokenStore.js"

/** A project id and keys used by unit tests (never real). */
export const projectId = "6a1d4a4f-6a51-4a8e-8a8d-0b3c1d2e3f40"
export const baseUrl = "http://stack.test"
export const apiUrl = `${baseUrl}/api/v1`
export const publishableClientKey = "pck_testpublishablekey0000000000000000000000000000"
export const secretServerKey = "ssk_testsecretserverkey000000000000000000000000000"
export const superSecretAdminKey = "sak_testsupersecretadminkey000000000000000000000000"
export const refreshTokenText = "refreshtoken0000000000000000000000000000000000"

/** An msw server for a test file; `onUnhandledRequest: "error"` so nothing escapes. */
export const makeMswServer = () => {
  const server = setupServer()
  return server
}

/** An unsigned JWT whose `exp` is `expSeconds` (epoch seconds), or without `exp`. */
export const accessToken = (expSeconds: number | undefined, subject = "user-1"): string => {
  const jwt = new UnsecuredJWT({ sub: subject, project_id: projectId }).setIssuedAt(0)
  if (expSeconds !== undefined) jwt.setExpirationTime(expSeconds)
  return jwt.encode()
}

/** Stored tokens from texts. */
export const tokens = (access: string | undefined, refresh: string | undefined): StoredTokens => ({
  accessToken: access === undefined ? Option.none() : Option.some(Redacted.make(access)),
  refreshToken: refresh === undefined ? Option.none() : Option.some(Redacted.make(refresh))
})

/** Settings + transport over `fetch` (msw intercepts) + the given retry policy. */
/**
 * The default retry policy without the per-attempt time limit: these tests advance the TestClock
 * to each pending sleep, and a limit pending during a real (msw) exchange would be advanced past
 * as if the server had stalled. The limit itself is tested in test/reliability/faultMatrix.msw.test.ts.
 */
export const testRetryPolicy: Layer.Layer<RetryPolicy.RetryPolicy> = RetryPolicy.layerWith({ attemptTimeout: "none" })

export const transportLayer = (retryPolicy: Layer.Layer<RetryPolicy.RetryPolicy> = testRetryPolicy) =>
  StackClient.layerWithoutDependencies.pipe(
    Layer.provide(StackClient.layerFetch),
    Layer.provide(retryPolicy),
    Layer.provideMerge(StackConfig.layer({ projectId, baseUrl, publishableClientKey })),
    Layer.provideMerge(recordSleeps)
  )

/** Transport + session over a memory store seeded with `initial`. */
export const sessionLayer = (initial: StoredTokens = TokenStore.empty, retryPolicy?: Layer.Layer<RetryPolicy.RetryPolicy>) =>
  Session.layer.pipe(Layer.provideMerge(TokenStore.layerMemory(initial)), Layer.provideMerge(transportLayer(retryPolicy)))

/** Lets real I/O (fetch through msw) progress while the test clock stands still. */
export const realPause = (millis = 2) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, millis)))

/** The pending sleeps (wake-up times, epoch millis) of each clock {@link recordSleepsOf} watches. */
const pendingByClock = new WeakMap<Clock.Clock, Set<{ readonly at: number }>>()

/**
 * Watches the sleeps taken on `clock` (the test's `TestClock`, which keeps its pending sleeps to
 * itself): every `sleep` is noted with its wake-up time until it ends or is interrupted. Idempotent.
 */
export const recordSleepsOf = (clock: Clock.Clock): Set<{ readonly at: number }> => {
  const known = pendingByClock.get(clock)
  if (known !== undefined) return known
  const pending = new Set<{ readonly at: number }>()
  pendingByClock.set(clock, pending)
  const sleep = clock.sleep.bind(clock)
  Object.assign(clock, {
    sleep: (duration: Duration.Duration) =>
      Effect.suspend(() => {
        const entry = { at: clock.currentTimeMillisUnsafe() + Duration.toMillis(duration) }
        pending.add(entry)
        return Effect.ensuring(sleep(duration), Effect.sync(() => void pending.delete(entry)))
      })
  })
  return pending
}

/** A layer that starts watching the current clock's sleeps (part of the test layers, so sleeps are seen from the start). */
export const recordSleeps: Layer.Layer<never> = Layer.effectDiscard(Effect.map(Clock.clockWith(Effect.succeed), recordSleepsOf))

/** The pending wake-up times of the current clock, epoch millis (the sleeps not yet woken). */
export const sleeps: Effect.Effect<ReadonlyArray<number>> = Clock.clockWith((clock) =>
  Effect.sync(() => {
    const now = clock.currentTimeMillisUnsafe()
    return [...recordSleepsOf(clock)].map((entry) => entry.at).filter((at) => at > now)
  })
)

/**
 * Waits (in real time, at most 30 s: generous for a loaded machine, whose real I/O is slow) until
 * the fiber is sleeping on the test clock or done; returns the pending wake-up times relative to now.
 */
export const pendingSleeps = <A, E>(fiber: Fiber.Fiber<A, E>) =>
  Effect.gen(function* () {
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      const pending = yield* sleeps
      if (pending.length > 0) {
        const now = yield* Clock.currentTimeMillis
        return pending.map((at) => at - now)
      }
      if (fiber.pollUnsafe() !== undefined) return []
      yield* realPause()
    }
    return []
  })

/** Runs a fiber to completion, advancing the test clock to each pending sleep; returns the delays slept. */
export const runAdvancingClock = <A, E>(fiber: Fiber.Fiber<A, E>) =>
  Effect.gen(function* () {
    const delays: Array<number> = []
    for (;;) {
      const pending = yield* pendingSleeps(fiber)
      if (pending.length === 0) break
      const next = Math.min(...pending)
      delays.push(next)
      yield* TestClock.adjust(next)
    }
    const exit = yield* Fiber.await(fiber)
    return { exit, delays }
  })

/** A client-view user as `GET /users/me` answers it. */
export const userBody = {
  id: "2b0b8f0e-3c1e-4f7a-9a57-0d3f5c0e6a11",
  display_name: "Ada",
  primary_email: "ada@example.com",
  primary_email_verified: false,
  profile_image_url: null,
  signed_up_at_millis: 1_700_000_000_000,
  client_metadata: null,
  client_read_only_metadata: null,
  has_password: true,
  auth_with_email: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: false,
  requires_totp_mfa: false,
  oauth_providers: [],
  selected_team_id: null,
  selected_team: null,
  is_anonymous: false,
  is_restricted: false,
  restricted_reason: null,
  restricted_by_admin: false,
  restricted_by_admin_reason: null
}
