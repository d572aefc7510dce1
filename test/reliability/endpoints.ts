/**
 * Every endpoint definition of the SDK and the emulator, collected at run time: the exported
 * endpoint values of every module under `src/` (outside the emulator) plus every route of the
 * emulator's registry (`allRoutes`). New domain modules are picked up without editing this file.
 */
import { Schema } from "effect"
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import type * as Endpoint from "../../src/core/Endpoint.js"
import { allRoutes } from "../../src/emulator/routes/index.js"

const srcRoot = new URL("../../src/", import.meta.url).pathname

/** Is this value an endpoint definition (`Endpoint.make`)? */
export const isEndpoint = (value: unknown): value is Endpoint.Any =>
  typeof value === "object" &&
  value !== null &&
  "method" in value &&
  "path" in value &&
  "access" in value &&
  "session" in value &&
  "success" in value &&
  "errors" in value &&
  typeof value.path === "string" &&
  Schema.isSchema(value.success) &&
  Array.isArray(value.errors)

const modulesUnder = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "emulator" ? [] : modulesUnder(path)
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts") ? [path] : []
  })

/** The collected endpoints, with where each came from, and the modules that failed to load. */
export interface Collected {
  readonly endpoints: ReadonlyArray<{ readonly endpoint: Endpoint.Any; readonly source: string }>
  readonly importFailures: ReadonlyArray<string>
}

/** Collects every endpoint definition (deduplicated by identity). */
export const collectEndpoints = async (): Promise<Collected> => {
  const seen = new Map<Endpoint.Any, string>()
  const importFailures: Array<string> = []
  const files = [...modulesUnder(srcRoot), join(srcRoot, "emulator", "Endpoints.ts")]
  for (const file of files) {
    let module: Record<string, unknown>
    try {
      module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
    } catch (error) {
      importFailures.push(`${file}: ${String(error)}`)
      continue
    }
    for (const [name, value] of Object.entries(module)) {
      if (isEndpoint(value) && !seen.has(value)) seen.set(value, `${file.slice(srcRoot.length)}#${name}`)
    }
  }
  for (const route of allRoutes) {
    if (!seen.has(route.endpoint)) seen.set(route.endpoint, `emulator route ${route.endpoint.method} ${route.endpoint.path}`)
  }
  return { endpoints: [...seen].map(([endpoint, source]) => ({ endpoint, source })), importFailures }
}
