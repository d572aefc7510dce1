/**
 * `GET /api/v1/emulator/outbox?email=&project_id=` (emulator only, no auth): the e-mails the
 * emulator "sent", oldest first, with the code and link each carries. Only for callers without
 * an `Origin` header and pages on a loopback origin (`BrowserAccess.ts`): other pages get 403.
 *
 * `GET /api/v1/emulator/outbox/page` (same filters): the same e-mails as a small HTML page for a
 * person, newest first, each with its subject, its link to click and the e-mail itself (its
 * rendered HTML in a sandboxed frame: no script of an e-mail runs, behind "Show the e-mail").
 *
 * @module
 */
import { Effect, Schema } from "effect"
import * as Endpoint from "../../core/Endpoint.js"
import * as Endpoints from "../Endpoints.js"
import * as Outbox from "../Outbox.js"
import { route } from "../Router.js"
import type { OutboxEntry } from "../State.js"

/** `GET /emulator/outbox/page?email=&project_id=` (emulator only): the outbox as an HTML page. */
export const outboxPage = Endpoint.make({
  name: "Emulator.outboxPage",
  method: "GET",
  path: "/emulator/outbox/page",
  access: "none",
  session: "none",
  query: Schema.Struct({ email: Schema.optional(Schema.String), project_id: Schema.optional(Schema.String) }),
  success: Schema.instanceOf(Response),
  errors: []
})

const escapeHtml = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/** Only links a person may follow from the page: http(s) ones. */
const safeLink = (link: string | null): string | undefined => {
  if (link === null) return undefined
  try {
    const url = new URL(link)
    return url.protocol === "http:" || url.protocol === "https:" ? url.href : undefined
  } catch {
    return undefined
  }
}

const renderEntry = (entry: OutboxEntry): string => {
  const link = safeLink(entry.link)
  return `      <li>
        <h2>${escapeHtml(entry.subject)}</h2>
        <p class="meta">To ${escapeHtml(entry.to)} · ${escapeHtml(new Date(entry.sentAtMillis).toISOString().replace("T", " ").slice(0, 19))} UTC</p>
${
    link === undefined
      ? ""
      : `        <p><a href="${escapeHtml(link)}">Open the link</a></p>\n`
  }        <details><summary>Show the e-mail</summary><iframe title="${escapeHtml(`The e-mail: ${entry.subject}`)}" sandbox="" srcdoc="${
    escapeHtml(entry.html)
  }"></iframe></details>
      </li>`
}

/** The page: newest e-mail first. */
const renderPage = (entries: ReadonlyArray<OutboxEntry>, email: string | undefined): string =>
  `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Outbox (emulator)</title>
    <style>
      body { margin: 0; padding: 2rem 1rem; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #f6f7fb; color: #1b1f2a; }
      main { max-width: 640px; margin: 0 auto; }
      h1 { font-size: 1.4rem; margin: 0 0 0.25rem; }
      ul { list-style: none; margin: 1rem 0 0; padding: 0; display: grid; gap: 0.75rem; }
      li { background: #fff; border: 1px solid #e3e6ef; border-radius: 10px; padding: 1rem 1.25rem; overflow-wrap: anywhere; }
      h2 { font-size: 1rem; margin: 0 0 0.25rem; }
      p { margin: 0 0 0.25rem; }
      .meta, .note { color: #475467; font-size: 0.85rem; }
      a { color: #4338ca; font-weight: 600; }
      summary { cursor: pointer; color: #475467; font-size: 0.85rem; margin-top: 0.5rem; }
      iframe { width: 100%; height: 28rem; border: 1px solid #e3e6ef; border-radius: 6px; margin-top: 0.5rem; background: #fff; }
      :focus-visible { outline: 3px solid #4f46e5; outline-offset: 2px; }
    </style>
  </head>
  <body>
    <main>
      <h1>Outbox</h1>
      <p class="note">The e-mails the emulator "sent"${email === undefined ? "" : ` to ${escapeHtml(email)}`}, newest first. Nothing leaves this machine.</p>
${entries.length === 0 ? `      <p>No e-mails yet.</p>\n` : `      <ul>\n${[...entries].reverse().map(renderEntry).join("\n")}\n      </ul>\n`}    </main>
  </body>
</html>
`

/** The outbox routes. */
export const routes = [
  route(
    Endpoints.outbox,
    ({ query }, context) =>
      Effect.succeed({
        items: Outbox.list(context.env.state, { email: query.email, projectId: query.project_id }).map((entry) => ({
          id: entry.id,
          to: entry.to,
          subject: entry.subject,
          code: entry.code,
          link: entry.link,
          sent_at_millis: entry.sentAtMillis
        }))
      }),
    { skipProjectAuth: true }
  ),
  route(
    outboxPage,
    ({ query }, context) =>
      Effect.sync(
        () =>
          new Response(renderPage(Outbox.list(context.env.state, { email: query.email, projectId: query.project_id }), query.email), {
            status: 200,
            headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" }
          })
      ),
    { skipProjectAuth: true }
  )
]
