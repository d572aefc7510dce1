/**
 * Helpers for the emulator's OAuth tests: drive authorize → mock provider → callback in process,
 * and exchange the code at the token endpoint.
 */
import { createHash, randomBytes } from "node:crypto"
import { Effect } from "effect"
import type * as Emulator from "../../src/emulator/Emulator.js"
import type { Answer } from "./helpers.js"
import { origin, send } from "./helpers.js"

/** A PKCE pair. */
export const pkce = (verifier = randomBytes(32).toString("base64url")) => ({
  verifier,
  challenge: createHash("sha256").update(verifier).digest("base64url")
})

/** The path + query of a URL on the emulator's origin. */
export const localPath = (url: string): string => {
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

/** Options of an authorize request. */
export interface AuthorizeOptions {
  readonly project: Emulator.ProjectCredentials
  readonly provider?: string
  readonly redirectUri?: string
  readonly state?: string
  readonly challenge?: string
  readonly type?: "authenticate" | "link"
  readonly token?: string
  readonly mode?: "json" | "redirect"
  readonly afterCallbackRedirectUrl?: string
  readonly providerScope?: string
  readonly clientSecret?: string
  /** Query parameters to drop (e.g. `code_challenge`). */
  readonly omit?: ReadonlyArray<string>
}

export const defaultRedirectUri = "http://localhost:3000/handler/oauth-callback"

/** The authorize query as the SDK sends it. */
export const authorizeQuery = (options: AuthorizeOptions, challenge: string): URLSearchParams => {
  const query = new URLSearchParams({
    client_id: options.project.projectId,
    client_secret: options.clientSecret ?? options.project.publishableClientKey,
    redirect_uri: options.redirectUri ?? defaultRedirectUri,
    scope: "legacy",
    state: options.state ?? "app-state-1",
    grant_type: "authorization_code",
    code_challenge: challenge,
    code_challenge_method: "S256",
    response_type: "code",
    type: options.type ?? "authenticate",
    error_redirect_url: "http://localhost:3000/handler/error"
  })
  if (options.token !== undefined) query.set("token", options.token)
  if (options.afterCallbackRedirectUrl !== undefined) query.set("after_callback_redirect_url", options.afterCallbackRedirectUrl)
  if (options.providerScope !== undefined) query.set("provider_scope", options.providerScope)
  if ((options.mode ?? "json") === "json") query.set("stack_response_mode", "json")
  for (const name of options.omit ?? []) query.delete(name)
  return query
}

/** `GET /auth/oauth/authorize/{provider}`. */
export const authorize = (emulator: Emulator.Emulator, options: AuthorizeOptions, challenge = pkce().challenge): Effect.Effect<Answer> =>
  send(emulator, { path: `/api/v1/auth/oauth/authorize/${options.provider ?? "github"}?${authorizeQuery(options, challenge).toString()}` })

/** The outcome of a flow up to the app's callback. */
export interface FlowResult {
  readonly verifier: string
  /** The final 303 of the service's callback. */
  readonly callback: Answer
  /** `redirect_uri?code&state` (the callback's location). */
  readonly location: URL
  readonly code: string
}

/** Runs authorize → mock provider (auto-approve with `email`) → service callback. */
export const runFlow = (
  emulator: Emulator.Emulator,
  options: AuthorizeOptions & { readonly email: string; readonly verifier?: string }
): Effect.Effect<FlowResult> =>
  Effect.gen(function* () {
    const { verifier, challenge } = pkce(options.verifier)
    const start = yield* authorize(emulator, options, challenge)
    const mode = options.mode ?? "json"
    if (mode === "json" ? start.status !== 200 : start.status !== 307) throw new Error(`authorize failed: ${start.status} ${start.text}`)
    const providerUrl = mode === "json" ? (start.json.location as string) : start.headers.get("location")!
    const cookie = start.headers.get("set-cookie")?.split(";")[0]
    const approved = yield* send(emulator, {
      path: `${localPath(providerUrl)}&auto=1&email=${encodeURIComponent(options.email)}`
    })
    if (approved.status !== 303) throw new Error(`provider failed: ${approved.status} ${approved.text}`)
    const callback = yield* send(emulator, {
      path: localPath(approved.headers.get("location")!),
      ...(cookie !== undefined ? { headers: { cookie } } : {})
    })
    const location = new URL(callback.headers.get("location") ?? `${origin}/no-location`)
    return { verifier, callback, location, code: location.searchParams.get("code") ?? "" }
  })

/** `POST /auth/oauth/token` with the code grant, form-encoded as the SDK sends it. */
export const exchange = (
  emulator: Emulator.Emulator,
  project: Emulator.ProjectCredentials,
  input: { readonly code: string; readonly verifier: string; readonly redirectUri?: string }
): Effect.Effect<Answer> =>
  send(emulator, {
    method: "POST",
    path: "/api/v1/auth/oauth/token",
    headers: { "content-type": "application/x-www-form-urlencoded;charset=UTF-8" },
    raw: new URLSearchParams({
      redirect_uri: input.redirectUri ?? defaultRedirectUri,
      code_verifier: input.verifier,
      code: input.code,
      grant_type: "authorization_code",
      client_id: project.projectId,
      client_secret: project.publishableClientKey
    }).toString()
  })
