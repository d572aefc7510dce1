/**
 * Runs bundled renderings (`Bundle.ts`) off the event loop, within a time and a memory bound: in
 * `worker_threads` workers (a few at most, kept between renderings, `unref`'d while idle) started
 * from an inline script (no file to locate: it works the same from the sources, the built `dist/`
 * and a bundled command line). A worker loads React, `@react-email/components` and arktype once,
 * resolved from the emulator's own location (`packageBase`), then runs each program as a function
 * given those packages. A rendering past its time bound has its worker terminated; one past the
 * memory bound (`resourceLimits.maxOldGenerationSizeMb`) ends its worker with
 * `ERR_WORKER_OUT_OF_MEMORY`; either way the next rendering gets a new worker.
 *
 * Each rendering gets its own copies of the package objects (a template that writes `React.x`
 * changes only its own copy; reading a name a package does not export is the ES module link error,
 * `The requested module '…' does not provide an export named '…'`), the `@react-email/components`
 * components are frozen, and the worker's console is silent (as the service's sandbox); a template
 * can still change globals the next rendering in the same worker sees (the service runs each in a
 * new sandbox). The bounds are against mistakes (a loop, a runaway allocation), not a security
 * boundary: the code runs in the emulator's process.
 *
 * @module
 */
import type { Worker } from "node:worker_threads"
import type { RenderLimits } from "./Limits.js"

/** What the program's entry gives back (the service's `ExecuteResult`, the error by its message). */
export type ProgramResult =
  | { readonly status: "ok"; readonly data: unknown }
  | { readonly status: "error"; readonly error: { readonly message: string } }

/** The outcome of running a program in a worker. */
export type RunOutcome =
  | { readonly _tag: "Done"; readonly result: ProgramResult }
  | { readonly _tag: "Timeout" }
  | { readonly _tag: "OutOfMemory" }
  | { readonly _tag: "LoadFailed"; readonly message: string }
  | { readonly _tag: "Crashed"; readonly message: string }

/**
 * The worker's script (CommonJS, run with `eval: true`): loads the packages (`workerData.names`,
 * resolved from `workerData.base`; an ES-only package by `import()`), says `ready`, then answers
 * each `{ id, code }` with `{ id, result }`.
 */
const workerScript = String.raw`"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const { pathToFileURL } = require("node:url");
const requireFrom = createRequire(workerData.base);
const load = async (name) => {
  try {
    return requireFrom(name);
  } catch (error) {
    if (error && (error.code === "ERR_REQUIRE_ESM" || error.code === "ERR_REQUIRE_ASYNC_MODULE")) {
      return await import(pathToFileURL(requireFrom.resolve(name)).href);
    }
    throw error;
  }
};
for (const method of ["log", "info", "warn", "error", "debug", "trace"]) console[method] = () => {};
const bindings = new Set(["__esModule", "default", "then"]);
// named imports read the proxy (a name the package lacks is the ES module link error); the default
// import (esbuild's __toESM of an __esModule object) is the plain copy, as module.exports in Node
const asImported = (name, value) => {
  const copy = { ...value };
  return new Proxy({ ...copy, __esModule: true, default: copy }, {
    get(target, key, receiver) {
      if (typeof key === "string" && !(key in target) && !bindings.has(key)) {
        throw new SyntaxError("The requested module '" + name + "' does not provide an export named '" + key + "'");
      }
      return Reflect.get(target, key, receiver);
    }
  });
};
const run = async (packages, code) => {
  const copies = new Map();
  for (const [name, value] of packages) copies.set(name, asImported(name, value));
  const requireInBundle = (name) => {
    if (copies.has(name)) return copies.get(name);
    throw new Error("Cannot find module '" + name + "'");
  };
  const module = { exports: {} };
  new Function("require", "module", "exports", '"use strict";\n' + code)(requireInBundle, module, module.exports);
  return await module.exports.default();
};
(async () => {
  const packages = new Map();
  try {
    for (const name of workerData.names) packages.set(name, await load(name));
    const components = packages.get("@react-email/components");
    for (const value of Object.values(components)) {
      if (typeof value === "function" || (typeof value === "object" && value !== null && "$$typeof" in value)) Object.freeze(value);
    }
  } catch (error) {
    parentPort.postMessage({ loadFailed: error instanceof Error ? error.message : String(error) });
    return;
  }
  parentPort.on("message", async ({ id, code }) => {
    let result;
    try {
      result = await run(packages, code);
    } catch (error) {
      result = { status: "error", error: { message: error instanceof Error ? error.message : String(error) } };
    }
    try {
      parentPort.postMessage({ id, result });
    } catch (error) {
      parentPort.postMessage({ id, result: { status: "error", error: { message: error instanceof Error ? error.message : String(error) } } });
    }
  });
  parentPort.postMessage({ ready: true });
})();
`

/** At most this many workers render at once (more renderings wait for one). */
const maxWorkers = 4

interface Slot {
  readonly worker: Worker
  readonly ready: Promise<string | undefined>
  busy: boolean
}

interface Pool {
  readonly slots: Set<Slot>
  readonly waiting: Array<() => void>
}

const pools = new Map<string, Pool>()
let nextId = 0

const poolOf = (key: string): Pool => {
  let pool = pools.get(key)
  if (pool === undefined) {
    pool = { slots: new Set(), waiting: [] }
    pools.set(key, pool)
  }
  return pool
}

const start = (WorkerClass: typeof Worker, pool: Pool, base: string, names: ReadonlyArray<string>, maxMemoryMb: number): Slot => {
  const worker = new WorkerClass(workerScript, {
    eval: true,
    workerData: { base, names },
    resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb },
    stdout: false,
    stderr: false
  })
  const ready = new Promise<string | undefined>((resolve) => {
    const onMessage = (message: { readonly ready?: boolean; readonly loadFailed?: string }) => {
      if (message.ready === true) resolve(undefined)
      else if (message.loadFailed !== undefined) resolve(message.loadFailed)
      else return
      worker.off("message", onMessage)
    }
    worker.on("message", onMessage)
    worker.once("error", (error) => resolve(error.message))
    worker.once("exit", (code) => resolve(`the rendering worker exited (${code})`))
  })
  const slot: Slot = { worker, ready, busy: true }
  worker.once("exit", () => {
    pool.slots.delete(slot)
    pool.waiting.shift()?.()
  })
  pool.slots.add(slot)
  return slot
}

const acquire = async (WorkerClass: typeof Worker, pool: Pool, base: string, names: ReadonlyArray<string>, maxMemoryMb: number): Promise<Slot> => {
  for (;;) {
    for (const slot of pool.slots) {
      if (!slot.busy) {
        slot.busy = true
        return slot
      }
    }
    if (pool.slots.size < maxWorkers) return start(WorkerClass, pool, base, names, maxMemoryMb)
    await new Promise<void>((resolve) => pool.waiting.push(resolve))
  }
}

const release = (pool: Pool, slot: Slot) => {
  slot.busy = false
  slot.worker.unref()
  pool.waiting.shift()?.()
}

/**
 * Runs a bundled program in a worker of the pool for `base` and `limits.maxMemoryMb`, within
 * `limits.timeoutMillis` (counted from when the worker has its packages loaded).
 */
export const runInWorker = async (
  WorkerClass: typeof Worker,
  base: string,
  names: ReadonlyArray<string>,
  code: string,
  limits: RenderLimits
): Promise<RunOutcome> => {
  const pool = poolOf(`${limits.maxMemoryMb}\u0000${base}`)
  const slot = await acquire(WorkerClass, pool, base, names, limits.maxMemoryMb)
  const { worker } = slot
  worker.ref()
  const loadFailure = await slot.ready
  if (loadFailure !== undefined) {
    void worker.terminate()
    return { _tag: "LoadFailed", message: loadFailure }
  }
  const id = nextId++
  return await new Promise<RunOutcome>((resolve) => {
    let settled = false
    const finish = (outcome: RunOutcome, keep: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      worker.off("message", onMessage)
      worker.off("error", onError)
      worker.off("exit", onExit)
      if (keep) release(pool, slot)
      else void worker.terminate()
      resolve(outcome)
    }
    const onMessage = (message: { readonly id?: number; readonly result?: ProgramResult }) => {
      if (message.id === id && message.result !== undefined) finish({ _tag: "Done", result: message.result }, true)
    }
    const onError = (error: Error & { readonly code?: string }) =>
      finish(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? { _tag: "OutOfMemory" } : { _tag: "Crashed", message: error.message }, false)
    const onExit = (code: number) => finish({ _tag: "Crashed", message: `the rendering worker exited (${code})` }, false)
    const timer = setTimeout(() => finish({ _tag: "Timeout" }, false), limits.timeoutMillis)
    worker.on("message", onMessage)
    worker.on("error", onError)
    worker.on("exit", onExit)
    worker.postMessage({ id, code })
  })
}
