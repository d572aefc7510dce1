/**
 * The trivial local HTTP server of the per-call and streaming measurements (a process of its own,
 * plain Node, no tsx). argv[2]: a JSON file with `{ "body": … }` (every request gets that recorded
 * `GET /users/me` answer) or `{ "pages": { "<cursor>": … } }` (recorded `GET /users` pages, chosen by
 * the request's `cursor` query parameter, `""` for the first page). `GET /__bench/count` answers
 * the number of other requests received. After `POST /__bench/hold` (or with argv[3] `hold`)
 * answers are held until `POST /__bench/release`, which answers every held request (later
 * requests are answered at once).
 * Listens on 127.0.0.1 (free port) and prints `{"port":…}` once listening.
 *
 * Keep-alive (issue 28 item 5): control answers carry `connection: close`, so the bench process,
 * which sends them minutes apart, never reuses an idle socket the server may have closed; the
 * measured clients keep their connections (as a server app's pool to the service does) and the
 * server never closes an idle one (`keepAliveTimeout = 0`: no idle timeout), so a child that
 * waits long between its warm-up and its measured calls (callgrind) finds its sockets open.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const answer = JSON.parse(readFileSync(process.argv[2], "utf8"))
const body = JSON.stringify(answer.body ?? null)
const pages = new Map(Object.entries(answer.pages ?? {}).map(([cursor, page]) => [cursor, JSON.stringify(page)]))
const bodyOf = (url) => {
  if (pages.size === 0) return body
  const cursor = new URL(url, "http://127.0.0.1").searchParams.get("cursor") ?? ""
  return pages.get(cursor) ?? JSON.stringify({ items: [], pagination: { next_cursor: null } })
}
let count = 0
let holding = process.argv[3] === "hold"
const held = []
/** A control answer: JSON, and the connection closed after it. */
const controlAnswer = (response, value) => {
  response.writeHead(200, { "content-type": "application/json", connection: "close" })
  response.end(JSON.stringify(value))
}
const server = createServer((request, response) => {
  if (request.url === "/__bench/count") {
    controlAnswer(response, { count })
    return
  }
  if (request.url === "/__bench/hold") {
    holding = true
    controlAnswer(response, { count })
    return
  }
  if (request.url === "/__bench/release") {
    holding = false
    for (const answer of held.splice(0)) answer()
    controlAnswer(response, { count })
    return
  }
  count += 1
  request.resume()
  request.on("end", () => {
    const text = bodyOf(request.url ?? "/")
    const answer = () => {
      response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) })
      response.end(text)
    }
    if (holding) held.push(answer)
    else answer()
  })
})
server.keepAliveTimeout = 0
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
