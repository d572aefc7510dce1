/**
 * Child process of the memory measurement (run with `node --expose-gc --import tsx`): heap
 * retained per live session after creating `N` sessions (each with its own in-memory token store
 * and scope, all sharing one transport and the same token texts, so the texts are not counted),
 * kept reachable while the heap is read; then with their scopes closed but still referenced; then
 * after every reference is dropped (a leak check: ~0). The same for full client contexts, and for
 * the floor of a client context: `FetchHttpClient.layer` alone, built the same way and as a
 * `ManagedRuntime` (what any Effect app over `fetch` holds at least). Prints one JSON line. `runs` (argv[4]) repeats the session measurement for a min / median.
 * The official side of a client (issue 28: heap per live client ÷ official): a `StackClientApp`
 * of `@stackframe/js` per context, memory token store signed in with the same token texts
 * (`signInWithTokens`), no automatic prefetch and no dev tool (no request is sent), where the
 * bench's dependencies are installed (`official: null` otherwise).
 */
import { Effect, Exit, Layer, ManagedRuntime, Option, Redacted, Scope } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
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

/** A pause for finalizers and timers after closing scopes: 250 ms at bench sizes, 20 ms for the test's small counts. */
const idle = () => new Promise((resolve) => setTimeout(resolve, sessions >= 1_000 ? 250 : 20))

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

/**
 * Objects the measurement must keep reachable while the heap is read: a global holder, so neither
 * V8's liveness analysis nor a later reassignment lets the collector take them early (the old
 * bench read the heap after the last use of its arrays, so the sessions were already garbage).
 */
const held: { sessions: Array<unknown>; scopes: Array<Scope.Closeable> } = { sessions: [], scopes: [] }
;(globalThis as { __benchHeld?: unknown }).__benchHeld = held

const measureSessions = async (sessions: number) => {
  const before = heap()
  for (let i = 0; i < sessions; i++) {
    const scope = Effect.runSync(Scope.make())
    const store = Effect.runSync(TokenStore.makeMemory(tokens))
    const session = await Effect.runPromise(
      Session.make.pipe(
        Effect.provideService(TokenStore.TokenStore, store),
        Effect.provideService(StackClient.StackClient, transport),
        Scope.provide(scope)
      )
    )
    held.scopes.push(scope)
    held.sessions.push(session)
  }
  const whileLive = heap()
  const reachable = held.sessions.length
  // scopes closed, sessions still referenced: what a closed session still holds
  for (const scope of held.scopes) await Effect.runPromise(Scope.close(scope, Exit.void))
  await idle()
  const closedStillReferenced = heap()
  // references dropped: anything left is a leak (kept by something global)
  held.scopes = []
  held.sessions = []
  await idle()
  const afterRelease = heap()
  return {
    count: sessions,
    reachableWhileMeasured: reachable,
    bytesPerLiveSession: (whileLive - before) / sessions,
    bytesPerClosedSessionStillReferenced: (closedStillReferenced - before) / sessions,
    bytesPerSessionAfterRelease: (afterRelease - before) / sessions
  }
}

/** Heap per context built by `build` (kept reachable), closed but referenced, released. */
const measureContexts = async (clients: number, build: () => Promise<{ readonly value: unknown; readonly close: () => Promise<void> }>) => {
  const before = heap()
  const closers: Array<() => Promise<void>> = []
  for (let i = 0; i < clients; i++) {
    const built = await build()
    held.sessions.push(built.value)
    closers.push(built.close)
  }
  const whileLive = heap()
  const reachable = held.sessions.length
  for (const close of closers) await close()
  closers.length = 0
  await idle()
  const closedStillReferenced = heap()
  held.sessions = []
  await idle()
  const afterRelease = heap()
  return {
    count: clients,
    reachableWhileMeasured: reachable,
    bytesPerLiveClient: (whileLive - before) / clients,
    bytesPerClosedClientStillReferenced: (closedStillReferenced - before) / clients,
    bytesPerClientAfterRelease: (afterRelease - before) / clients
  }
}

/** A layer built into a scope of its own: its context and how to close it. */
const buildLayer = <A, E>(layer: Layer.Layer<A, E>) => async () => {
  const scope = Effect.runSync(Scope.make())
  const value = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  return { value: [value, scope], close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const clientLayer = Stack.layerClient({ projectId, baseUrl, tokenStore: TokenStore.layerMemory(tokens) })
const measureClients = (clients: number) => measureContexts(clients, buildLayer(clientLayer))
/** The floor: `FetchHttpClient.layer` alone, built as the client contexts are. */
const measureFloorLayer = (clients: number) => measureContexts(clients, buildLayer(FetchHttpClient.layer))
/** The floor as a `ManagedRuntime` of `FetchHttpClient.layer` (built, then held). */
const measureFloorRuntime = (clients: number) =>
  measureContexts(clients, async () => {
    const runtime = ManagedRuntime.make(FetchHttpClient.layer)
    await runtime.context()
    return { value: runtime, close: () => runtime.dispose() }
  })

// a small warm-up cycle first, so one-time costs (compiled code, shapes, module state) are not counted per session
const runs = Math.max(1, Number(process.argv[4] ?? 3))
await measureSessions(Math.min(1_000, sessions))
const sessionRuns: Array<Awaited<ReturnType<typeof measureSessions>>> = []
for (let run = 0; run < runs; run++) sessionRuns.push(await measureSessions(sessions))
const sessionResult = { ...sessionRuns[0]!, runs: sessionRuns.map((run) => run.bytesPerLiveSession) }
await measureClients(Math.min(100, clients))
const clientResult = await measureClients(clients)
await measureFloorLayer(Math.min(100, clients))
const floorLayer = await measureFloorLayer(clients)
await measureFloorRuntime(Math.min(100, clients))
const floorRuntime = await measureFloorRuntime(clients)
const floor = { count: clients, bytesPerLayer: floorLayer.bytesPerLiveClient, bytesPerRuntime: floorRuntime.bytesPerLiveClient }

/** The official `StackClientApp`, where `bench/node_modules` holds it. */
const official = await import("@stackframe/js").catch(() => null)
const officialTokens = {
  accessToken: Redacted.value(Option.getOrThrow(tokens.accessToken)),
  refreshToken: Redacted.value(Option.getOrThrow(tokens.refreshToken))
}
const measureOfficialClients = (count: number) =>
  measureContexts(count, async () => {
    const app = new official!.StackClientApp({
      projectId,
      publishableClientKey: "pck_bench",
      baseUrl,
      tokenStore: "memory",
      noAutomaticPrefetch: true,
      devTool: false
    })
    // the official app's own sign-in entry point for tokens obtained elsewhere (as bench/lib/official.ts)
    await (app as unknown as Record<symbol, { signInWithTokens(tokens: unknown): Promise<void> }>)[official!.stackAppInternalsSymbol]!.signInWithTokens(
      officialTokens
    )
    return { value: app, close: async () => undefined }
  })
let officialResult: Awaited<ReturnType<typeof measureOfficialClients>> | null = null
if (official !== null) {
  await measureOfficialClients(Math.min(100, clients))
  officialResult = await measureOfficialClients(clients)
}
process.stdout.write(`${JSON.stringify({ sessions: sessionResult, clients: clientResult, floor, officialClients: officialResult })}\n`)
// the official apps keep timers of their own running: end here rather than wait for them
process.exit(0)
