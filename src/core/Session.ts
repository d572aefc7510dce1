import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import type { SessionShape } from "../Session.js"

/** The session tag, in a leaf module so the transport can depend on it without a cycle. */
export class Session extends /* @__PURE__ */ Context.Tag("stack-auth-effect/Session")<Session, SessionShape>() {}

/** Minimum remaining validity for reusing an access token. */
export const minimumRemaining = 20_000

/** Default time a refresh failure for a network reason is reused (2 s). */
export const defaultRefreshFailureCooldown: Duration.Duration = /* @__PURE__ */ Duration.seconds(2)

/**
 * How long a refresh that failed for a network reason (`ConnectivityError`, `RateLimited`, an
 * `HttpError` of status 5xx) is reused, per refresh token, before another refresh is sent.
 * Default {@link defaultRefreshFailureCooldown}; override with
 * `Effect.provideService(RefreshFailureCooldown, Duration.seconds(5))` or a layer.
 */
export class RefreshFailureCooldown extends /* @__PURE__ */ Context.Reference<RefreshFailureCooldown>()(
  "stack-auth-effect/RefreshFailureCooldown",
  { defaultValue: (): Duration.Duration => defaultRefreshFailureCooldown }
) {}
