/**
 * The emulator's HTTP server in a process of its own (run with `node --import tsx`), so the
 * client being measured does not share its CPU time or heap with the server. argv[2]: users to
 * seed into the demo project (no requests). Prints one JSON line (base URL, demo keys, users of
 * the demo project, demo user included, control port) once listening. The control server on another 127.0.0.1 port answers `GET /count` (requests
 * received by the emulator, by "METHOD /path") and `POST /reset`, and closes the connection after each answer.
 */
import { Effect, Exit, Scope } from "effect"
import { createServer } from "node:http"
import * as Emulator from "../../src/emulator/Emulator.js"
import { serve } from "../../src/emulator/server.js"
import { countingEmulator, seedUsers } from "../lib/harness.js"

const seed = Number(process.argv[2] ?? 0)
const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
seedUsers(emulator, seed)
const { counting, counts } = countingEmulator(emulator)
const scope = await Effect.runPromise(Scope.make())
const server = await Effect.runPromise(Scope.provide(serve({ emulator: counting, host: "127.0.0.1" }), scope))
const control = createServer((request, response) => {
  if (request.method === "POST" && request.url === "/reset") counts.clear()
  // the bench asks minutes apart: no idle socket kept for it to reuse (issue 28 item 5)
  response.writeHead(200, { "content-type": "application/json", connection: "close" })
  response.end(JSON.stringify(Object.fromEntries(counts)))
})
control.listen(0, "127.0.0.1", () => {
  const address = control.address()
  process.stdout.write(
    `${
      JSON.stringify({
        baseUrl: server.baseUrl,
        projectId: emulator.demo.projectId,
        publishableClientKey: emulator.demo.publishableClientKey,
        secretServerKey: emulator.demo.secretServerKey,
        users: emulator.state.projects.get(emulator.demo.projectId)!.users.size,
        controlPort: typeof address === "object" && address !== null ? address.port : 0
      })
    }\n`
  )
})
process.on("SIGTERM", () => {
  control.close()
  void Effect.runPromise(Scope.close(scope, Exit.void)).then(() => process.exit(0))
})
