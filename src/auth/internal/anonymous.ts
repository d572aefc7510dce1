/**
 * The wire definitions of `Anonymous` (docs/ARCHITECTURE.md): its endpoint descriptors, wire-only
 * schemas and wire texts, used by `Anonymous.ts`, the emulator and tests; not part of the public
 * surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import * as Endpoint from "../../core/Endpoint.js"
import { SignInTokens } from "./tokens.js"

/** `POST /auth/anonymous/sign-up` (no body) → `{access_token, refresh_token, user_id}`. */
export const signUpEndpoint = Endpoint.make({
  name: "Anonymous.signUp",
  method: "POST",
  path: "/auth/anonymous/sign-up",
  access: "client",
  session: "none",
  success: SignInTokens,
  // the service performs no project-switch check: ANONYMOUS_ACCOUNTS_NOT_ENABLED is never raised (§6 #8)
  errors: []
})
