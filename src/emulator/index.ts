/**
 * The local emulator of the hosted service (`stack-auth-effect/emulator`): in memory,
 * answering the SDK as the service does, for examples, end-to-end tests and your own tests.
 *
 * - {@link make} builds one (internal + demo projects and the demo user seeded, see {@link defaults};
 *   {@link blankDemo} for a demo project as the service creates a project).
 * - {@link layerHttpClient} answers the SDK's requests in-process. msw handlers are in
 *   `stack-auth-effect/emulator/msw` (needs `msw`), the Node HTTP server and its CLI in
 *   `stack-auth-effect/emulator/server` (Node only).
 * - The outbox keeps every e-mail "sent": `emulator.outbox({ email })`, or
 *   `GET /api/v1/emulator/outbox?email=…` (like admin access, answered only to non-browser
 *   callers and pages on localhost / 127.x.x.x / [::1]; other web pages get 403).
 *
 * @module
 */
export { blankDemo, chaosRateLimitText, CurrentEmulator, EmulatorError, foreignHostHandlerText, handleWithHostCheck, make } from "./Emulator.js"
export type {
  ChaosRateLimitOptions,
  DemoProjectOptions,
  DemoSeed,
  Emulator,
  EmulatorOptions,
  HostCheckOptions,
  ProjectCredentials,
  ProjectOptions,
  SeedUserOptions
} from "./Emulator.js"
export { defaults } from "./Defaults.js"
export { describeDemoSeed } from "./DemoFlags.js"
export type { DemoSwitches, SeededProject, SeededUser } from "./Defaults.js"
export { layer, layerHttpClient, makeHttpClient } from "./InProcessClient.js"
export * as Outbox from "./Outbox.js"
export type { OutboxEntry, OutboxFilter } from "./Outbox.js"
export { defaultProjectConfig } from "./State.js"
export type { EmulatorState, ProjectConfig, ProjectRecord, SessionRecord, TrustedDomain, UserRecord } from "./State.js"
export type { AccessTokenClaims } from "./AccessTokens.js"
