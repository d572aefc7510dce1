/**
 * The emulator's seeded projects and fixed development credentials, and its default settings.
 * These keys are public on purpose: they only open the local emulator.
 *
 * @module
 */
import type { ProjectConfig } from "./State.js"

/** Credentials of a seeded project. */
export interface SeededProject {
  readonly projectId: string
  readonly displayName: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
  readonly superSecretAdminKey: string
}

/** A user the emulator creates at start: a verified e-mail that signs in with its password. */
export interface SeededUser {
  readonly email: string
  readonly password: string
  readonly displayName: string
}

/** The project switches of the demo project (each one a `ProjectConfig` field of the same name). */
export type DemoSwitches = Pick<
  ProjectConfig,
  | "signUpEnabled"
  | "credentialEnabled"
  | "magicLinkEnabled"
  | "passkeyEnabled"
  | "clientTeamCreationEnabled"
  | "clientUserDeletionEnabled"
  | "allowUserApiKeys"
  | "allowTeamApiKeys"
  | "allowLocalhost"
>

/**
 * The emulator's defaults.
 *
 * - `demo`: project `3f6a1a52-8d1e-4c7e-9b8f-2d5c1e0a7b91` ("Demo Project"), publishable key not
 *   required, no trusted domains besides localhost, the switches of `demoConfig` and the user
 *   `demoUser` — the same demo for `Emulator.make()`, `npx stack-auth-emulator` and `npm start`.
 * - `demoConfig`: every sign-in method on (password, magic link, passkeys; OAuth with the mock
 *   providers), client team creation, client user deletion, user and team API keys allowed,
 *   `allow_localhost` true. `Emulator.make({ demo: { config: { … } } })` or the CLI's flags
 *   (`--no-client-team-creation` …) turn them off; `blankDemo` is a project as the service creates it.
 * - `demoUser`: `demo@example.com` / `demo-password-1234` ("Demo User", e-mail verified), created
 *   at start; `Emulator.make({ demo: { user: false } })` or `--no-demo-user` leaves it out.
 * - `internal`: project `internal` ("Stack Dashboard"), the project whose users own projects.
 * - `internalOwner`: a user of the `internal` project, e-mail `owner@emulator.local`, password
 *   `emulator-owner-password`, member of the team "Demo Team" (`internalOwner.teamId`), the owner
 *   team of the demo project: sign in with it on `internal` and its access token administers the
 *   demo project (`x-stack-admin-access-token`, `Access.layerAdminAccessToken`).
 * - Keys are the service's prefix (`pck_`, `ssk_`, `sak_`) + 45 lowercase Crockford base32 characters.
 * - `accessTokenLifetimeSeconds`: 600 (the production service's default is 10 minutes; the
 *   development service issues 60 s tokens). Per project: `ProjectOptions.accessTokenLifetimeSeconds`;
 *   for all: `EmulatorOptions.accessTokenLifetimeSeconds` / `--access-token-lifetime`.
 * - `passwordHashIterations`: 10 000 PBKDF2-SHA256 iterations. Deliberately low: a production
 *   service should use ≥ 100 000, which makes every sign-up/sign-in in a test suite slow; the
 *   emulator protects no real secret, only stores no clear passwords.
 * - `refreshTokenLifetimeMillis`: one year (PROTOCOL.md §2.5).
 * - `maxRequestBodyBytes`: 1 MiB; a longer request body is answered 413 (text) without being read.
 *
 * @example
 * ```ts
 * import { defaults } from "stack-auth-effect/emulator"
 * const config = { projectId: defaults.demo.projectId, publishableClientKey: defaults.demo.publishableClientKey }
 * ```
 */
export const defaults = {
  demo: {
    projectId: "3f6a1a52-8d1e-4c7e-9b8f-2d5c1e0a7b91",
    displayName: "Demo Project",
    publishableClientKey: "pck_282exj7w8gsm85wtqg43r8enp05am3snvb5j60dbpzg2g",
    secretServerKey: "ssk_teadwt0nscbrrfv75m052c9hvcfeyvzb7xv3xfsjzm1gq",
    superSecretAdminKey: "sak_wsgydcwdbwb1g5dejfvr7xn27ta8bk7s3vgnz0bhs5eps"
  },
  internal: {
    projectId: "internal",
    displayName: "Stack Dashboard",
    publishableClientKey: "pck_ygv5zdgbyy2r7qx2j7117s3pw6bwz0cmy2fvm4j04snzk",
    secretServerKey: "ssk_ed3apq3xjgn5sh17hhhapem5qnzn7dyxarqpzrdf6gjhb",
    superSecretAdminKey: "sak_vfezh2w3aq0fcqfz1kpz8ym0t6gq1gxnvn92sgzkct4vp"
  },
  demoConfig: {
    signUpEnabled: true,
    credentialEnabled: true,
    magicLinkEnabled: true,
    passkeyEnabled: true,
    clientTeamCreationEnabled: true,
    clientUserDeletionEnabled: true,
    allowUserApiKeys: true,
    allowTeamApiKeys: true,
    allowLocalhost: true
  },
  /**
   * The `internal` project's switches, as the service seeds its dashboard project: sign-up,
   * password and OTP/magic-link sign-in, localhost, client team creation and a personal team on
   * sign-up on (so a dashboard user can create a project owned by their team at once), with the
   * shared GitHub, Google, Microsoft and Spotify OAuth providers.
   */
  internalConfig: {
    signUpEnabled: true,
    credentialEnabled: true,
    magicLinkEnabled: true,
    allowLocalhost: true,
    clientTeamCreationEnabled: true,
    createTeamOnSignUp: true,
    oauthProviders: [
      { id: "github", provider: "github", type: "shared" },
      { id: "google", provider: "google", type: "shared" },
      { id: "microsoft", provider: "microsoft", type: "shared" },
      { id: "spotify", provider: "spotify", type: "shared" }
    ]
  },
  demoUser: {
    email: "demo@example.com",
    password: "demo-password-1234",
    displayName: "Demo User"
  },
  internalOwner: {
    userId: "5b0c2a8e-7f41-4d6b-9a3e-1c8d2f6e4a70",
    email: "owner@emulator.local",
    password: "emulator-owner-password",
    displayName: "Emulator Owner",
    teamId: "8e1f3c5a-2b7d-4e9f-a6c1-0d4b7e2f9a35",
    teamDisplayName: "Demo Team"
  },
  accessTokenLifetimeSeconds: 600,
  passwordHashIterations: 10_000,
  refreshTokenLifetimeMillis: 365 * 24 * 60 * 60 * 1000,
  /** Lifetime of codes sent by e-mail (7 days). */
  emailCodeLifetimeMillis: 7 * 24 * 60 * 60 * 1000,
  /** Lifetime of an MFA attempt code (5 minutes). */
  mfaAttemptLifetimeMillis: 5 * 60 * 1000,
  /** The largest request body the emulator reads (1 MiB); a longer one is answered 413. */
  maxRequestBodyBytes: 1024 * 1024
} as const satisfies {
  readonly demo: SeededProject
  readonly internal: SeededProject
  readonly demoConfig: DemoSwitches
  readonly demoUser: SeededUser
  readonly [key: string]: unknown
}
