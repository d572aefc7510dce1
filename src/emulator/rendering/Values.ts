/**
 * The values a template works with while the emulator renders it: JavaScript's primitives, plain
 * objects (a `Map`, so no key reaches a prototype), arrays, functions (the template's own and the
 * renderer's built-ins: React e-mail components, `@stackframe/emails`, arktype's `type`) and
 * elements (what JSX makes: a type and its props, children among them). Also the {@link Budget}
 * every step of evaluation and rendering draws on, so a hostile source ends in a `limit` failure.
 *
 * @module
 */
import { limitFailure, runtimeFailure } from "./RenderFailure.js"
import type { FunctionBody, Pattern } from "./TsxSyntax.js"

/** A plain object. */
export class Obj {
  readonly kind = "object"
  readonly fields = new Map<string, Value>()
  /** Shared by every rendering (a module's namespace): templates cannot change it. */
  frozen = false

  /** An object with the given fields (undefined values left out). */
  static of(fields: Readonly<Record<string, Value>>): Obj {
    const obj = new Obj()
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) obj.fields.set(key, value)
    return obj
  }

  get(key: string): Value {
    return this.fields.get(key)
  }
}

/** What a JSX expression makes. */
export class Element {
  readonly kind = "element"
  constructor(
    readonly type: Value,
    readonly props: Obj
  ) {}
}

/** Scope of a template: names to values. */
export class Scope {
  private readonly vars = new Map<string, Value>()
  constructor(private readonly parent: Scope | undefined) {}

  declare(name: string, value: Value) {
    this.vars.set(name, value)
  }

  has(name: string): boolean {
    return this.vars.has(name) || (this.parent?.has(name) ?? false)
  }

  lookup(name: string): Value {
    if (this.vars.has(name)) return this.vars.get(name)
    if (this.parent !== undefined) return this.parent.lookup(name)
    throw runtimeFailure(`${name} is not defined`)
  }
}

/** A function written in the template. */
export class UserFunction {
  readonly kind = "function"
  readonly fields = new Map<string, Value>()
  constructor(
    readonly name: string | undefined,
    readonly params: ReadonlyArray<Pattern>,
    readonly body: FunctionBody,
    readonly scope: Scope
  ) {}
}

/** Which `@stackframe/emails` marker component a built-in is (its value is read, it renders nothing). */
export type StackComponent = "Subject" | "NotificationCategory"

/** A function or component the renderer provides. */
export class Builtin {
  readonly kind = "builtin"
  readonly fields = new Map<string, Value>()
  constructor(
    readonly name: string,
    readonly call: (args: ReadonlyArray<Value>, budget: Budget) => Value,
    readonly stackComponent?: StackComponent
  ) {}
}

/** Any value. */
export type Value = string | number | boolean | null | undefined | Obj | Element | UserFunction | Builtin | ReadonlyArray<Value>

/** Whether a value can be called (or used as a component). */
export const isCallable = (value: Value): value is UserFunction | Builtin => value instanceof UserFunction || value instanceof Builtin

/** JavaScript's truthiness. */
export const truthy = (value: Value): boolean =>
  value !== undefined && value !== null && value !== false && value !== 0 && value !== "" && !(typeof value === "number" && Number.isNaN(value))

/** JavaScript's `typeof`, for messages. */
export const typeOf = (value: Value): string =>
  value === null ? "object" : value === undefined ? "undefined" : isCallable(value) ? "function" : typeof value === "object" ? "object" : typeof value

/** JavaScript's `String(value)` for the values of the subset. */
export const toText = (value: Value, budget: Budget): string => {
  if (typeof value === "string") return value
  if (value === undefined) return "undefined"
  if (value === null) return "null"
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  if (Array.isArray(value)) {
    budget.step()
    // joined step by step, so a long array of long strings stops at the length bound before it is built
    let length = 0
    const parts: Array<string> = []
    for (const item of value as ReadonlyArray<Value>) {
      budget.step()
      const part = item === null || item === undefined ? "" : toText(item, budget)
      length += part.length + 1
      budget.within(length)
      parts.push(part)
    }
    return parts.join(",")
  }
  if (isCallable(value)) return `function ${value.name ?? ""}() { [native code] }`
  return "[object Object]"
}

/** The emulator's bounds on rendering one template. */
export interface Limits {
  /** Evaluation steps (expressions, statements, rendered nodes). */
  readonly maxSteps: number
  /** Nesting of evaluation (calls inside expressions inside calls…). */
  readonly maxDepth: number
  /** Length of any string the template builds, and of the rendered HTML. */
  readonly maxLength: number
}

/** The bounds the emulator renders under. */
export const defaultLimits: Limits = { maxSteps: 500_000, maxDepth: 1_000, maxLength: 2_000_000 }

/** Counts the work of one rendering against its {@link Limits}. */
export class Budget {
  steps = 0
  private depth = 0
  constructor(readonly limits: Limits = defaultLimits) {}

  step() {
    if (++this.steps > this.limits.maxSteps) throw limitFailure(`Rendering took more than ${this.limits.maxSteps} steps`)
  }

  enter() {
    this.step()
    if (++this.depth > this.limits.maxDepth) throw limitFailure(`Rendering nested more than ${this.limits.maxDepth} levels deep`)
  }

  leave() {
    this.depth--
  }

  /** Checks the length of a string the template built. */
  length(text: string): string {
    this.within(text.length)
    return text
  }

  /** Checks a length against {@link Limits.maxLength}. */
  within(length: number) {
    if (length > this.limits.maxLength) throw limitFailure(`Rendering built a text longer than ${this.limits.maxLength} characters`)
  }
}
