/**
 * How the emulator checks an SMTP server for `POST /internal/send-test-email`: the service sends
 * a real test e-mail and answers `{ success: false, error_message }` when the server cannot be
 * reached (PROTOCOL.md §3.7: a 10 s timeout is reported the same way). The emulator's core runs
 * without Node (in a browser under msw), so the check is a function it is given: the Node server
 * (`server.ts`) gives {@link SmtpProbe}s that open a TCP connection (`NodeSmtpProbe.ts`); without
 * one the test e-mail goes straight into the outbox.
 *
 * @module
 */
import type { Effect } from "effect"

/**
 * Connects to an SMTP server and reads its greeting: succeeds when the server greets with `220`,
 * fails with the reason (e.g. `connect ECONNREFUSED 127.0.0.1:2525`) otherwise.
 */
export type SmtpProbe = (server: { readonly host: string; readonly port: number }) => Effect.Effect<void, string>
