/**
 * A plain static file server (a process of its own, plain Node): serves the files below argv[2]
 * on 127.0.0.1 (free port), `index.html` for a folder, with a content type by extension and
 * `cache-control: no-store`. Prints `{"port":…}` once listening. The render part of the bench
 * (`bench/lib/render.ts`) serves the Vite builds of its pages from it.
 */
import { readFile } from "node:fs/promises"
import { createServer } from "node:http"
import { extname, join, normalize } from "node:path"

const root = normalize(process.argv[2])
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".svg": "image/svg+xml" }
const server = createServer(async (request, response) => {
  const path = decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname)
  const file = normalize(join(root, path.endsWith("/") ? `${path}index.html` : path))
  if (!file.startsWith(root)) {
    response.writeHead(403).end()
    return
  }
  try {
    const body = await readFile(file)
    response.writeHead(200, {
      "content-type": types[extname(file)] ?? "application/octet-stream",
      "content-length": body.byteLength,
      "cache-control": "no-store"
    })
    response.end(body)
  } catch {
    response.writeHead(404, { "content-type": "text/plain" }).end("not found")
  }
})
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`)
})
process.on("SIGTERM", () => server.close(() => process.exit(0)))
