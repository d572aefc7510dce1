/**
 * Where a (deleted) user's id still appears in the emulator's state: a walk over every record,
 * map, set and array reachable from `emulator.state` (keys and values), iterative (no recursion).
 * Used by the user-deletion tests and as an invariant of the model-based reliability test.
 */
import type { EmulatorState } from "../../src/emulator/State.js"

/** The paths (e.g. `projects[<id>].apiKeys[<id>].ownerId`) at which `userId` occurs, empty when none. */
export const userReferences = (state: EmulatorState, userId: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  const seen = new Set<object>()
  const stack: Array<{ readonly value: unknown; readonly path: string }> = [{ value: state, path: "state" }]
  const visit = (value: unknown, path: string) => {
    if (value === userId) found.push(path)
    else if (typeof value === "object" && value !== null && !seen.has(value)) stack.push({ value, path })
  }
  while (stack.length > 0) {
    const { value, path } = stack.pop()!
    if (typeof value !== "object" || value === null || seen.has(value)) continue
    seen.add(value)
    if (value instanceof Map) {
      for (const [key, item] of value) {
        if (key === userId) found.push(`${path} key`)
        visit(item, `${path}[${String(key)}]`)
      }
    } else if (value instanceof Set) {
      for (const item of value) visit(item, `${path}{}`)
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, `${path}[${index}]`))
    } else {
      for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`)
    }
  }
  return found
}
