/**
 * Child process of the memory measurement (run with `node --expose-gc --import tsx`): heap
 * retained per live session after creating `N` sessions (each with its own in-memory token store
 * and scope, all sharing one transport and the same token texts, so the texts are not counted),
 * and what is left once their scopes have closed. Prints one JSON line.
 */
import { Effect, Exit, Layer, Scope } from "effect"
import * as RetryPolicy from "../src/core/RetryPolicy.js"
import * as StackClient from "../src/core/StackClient.js"
import * as StackConfig from "../src/core/StackConfig.js"
import * as Session from "../src/session/Session.js"
import * as TokenStore from "../src/session/TokenStore.js"
import * as Stack from "../src/Stack.js"

const sessions = Number(process.argv[2] ?? 10_000)
const clients = Number(process.argv[3] ?? 1_000)
const gc = (globalThis as { gc?: () => void }).gc
if (gc === undefined) throw new Error("run with --expose-gc")

const idle = () => new Promise((resolve) => setTimeout(resolve, 250))

const heap = () => {
  for (let i = 0; i < 4; i++) gc()
  return process.memoryUsage().heapUsed
}

const projectId = "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f"
const baseUrl = "http://127.0.0.1:9"
// a real-looking pair; the same strings for every session
const tokens = TokenStore.fromStrings(
  "eyJhbGciOiJFUzI1NiIsImtpZCI6ImJlbmNoa2lkMDAwIn0.eyJzdWIiOiJiZW5jaCIsImV4cCI6NDEwMjQ0NDgwMH0.c2lnbmF0dXJl",
  "0123456789abcdefghjkmnpqrstvwxyz0123456789abc"
)

const transport = await Effect.runPromise(
  StackClient.make.pipe(
    Effect.provide(Layer.mergeAll(StackConfig.layer({ projectId, baseUrl }), StackClient.layerFetch, RetryPolicy.layer))
  )
)

const measureSessions = async (sessions: number) => {
  const before = heap()
  let scopes: Array<Scope.CloseableScope> = []
  let live: Array<Session.SessionShape> = []
  for (let i = 0; i < sessions; i++) {
    const scope = Effect.runSync(Scope.make())
    const store = Effect.runSync(TokenStore.makeMemory(tokens))
    const session = await Effect.runPromise(
      Session.make.pipe(
        Effect.provideService(TokenStore.TokenStore, store),
        Effect.provideService(StackClient.StackClient, transport),
        Scope.extend(scope)
      )
    )
    scopes.push(scope)
    live.push(session)
  }
  const whileLive = heap()
  for (const scope of scopes) await Effect.runPromise(Scope.close(scope, Exit.void))
  scopes = []
  live = []
  await idle()
  const afterClose = heap()
  return { count: sessions, bytesPerLiveSession: (whileLive - before) / sessions, bytesPerClosedSession: (afterClose - before) / sessions, kept: live.length + scopes.length }
}

const measureClients = async (clients: number) => {
  const before = heap()
  let scopes: Array<Scope.CloseableScope> = []
  let contexts: Array<unknown> = []
  const layer = Stack.layerClient({ projectId, baseUrl, tokenStore: TokenStore.layerMemory(tokens) })
  for (let i = 0; i < clients; i++) {
    const scope = Effect.runSync(Scope.make())
    contexts.push(await Effect.runPromise(Layer.buildWithScope(layer, scope)))
    scopes.push(scope)
  }
  const whileLive = heap()
  for (const scope of scopes) await Effect.runPromise(Scope.close(scope, Exit.void))
  scopes = []
  contexts = []
  await idle()
  const afterClose = heap()
  return { count: clients, bytesPerLiveClient: (whileLive - before) / clients, bytesPerClosedClient: (afterClose - before) / clients, kept: contexts.length }
}

// a small warm-up cycle first, so one-time costs (compiled code, shapes, module state) are not counted per session
await measureSessions(Math.min(1_000, sessions))
const sessionResult = await measureSessions(sessions)
await measureClients(Math.min(100, clients))
const clientResult = await measureClients(clients)
process.stdout.write(`${JSON.stringify({ sessions: sessionResult, clients: clientResult })}\n`)
