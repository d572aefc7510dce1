/**
 * The trivial local HTTP server of the per-call measurement (a process of its own, plain Node, no
 * tsx): every request gets the same recorded `GET /users/me` answer (argv[2]: a JSON file with
 * `{ "body": … }`). `GET /__bench/count` answers the number of other requests received. Listens on
 * 127.0.0.1 (free port) and prints `{"port":…}` once listening.
 */
import { readFileSync } from "node:fs"
import { createServer } from "node:http"

const body = JSON.stringify(JSON.parse(readFileSync(process.argv[2], "utf8")).body)
let count = 0
const server = createServer((request, response) => {
  if (request.url === "/__bench/count") {
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify({ count }))
    return
  }
  count += 1
  request.resume()
  request.on("end", () => {
    response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
    response.end(body)
  })
})
server.keepAliveTimeout = 60_000
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
