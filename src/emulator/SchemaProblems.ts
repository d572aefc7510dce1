/**
 * The problem lines of the emulator's `SCHEMA_ERROR` answers (`Request validation failed on …`),
 * read from a schema issue: `body contains unknown properties: x`, `body.x must be defined`,
 * ``body.x must be a `string` type, but the final value was: `5`.``, `body.x must not be empty`,
 * and the fixed texts of the SDK's checks (`params.user_id must be a valid UUID`).
 *
 * The lines are the emulator's own wording, kept word for word across versions of the schema
 * library: Effect's own issue formatter is not used. The issue tree is walked into flat leaves
 * (a wrong type, a missing key, an unknown key, a failed check or transformation with its
 * text), then the leaves become lines:
 *
 * - unknown keys are listed once per object, first;
 * - a union is reported member by member (each member's own problem), so `"me"` or a uuid
 *   reads ``must be a valid UUID`` and ``must be a `"me"` type``;
 * - the wrong types at one path become one line naming the first expected type that is neither
 *   `null` nor `undefined`;
 * - of several checks on one value, the first that fails is reported.
 *
 * @module
 */
import { Result, Schema, SchemaParser } from "effect"
import type { SchemaAST, SchemaIssue } from "effect"

/** The options every request is decoded with: all problems, input reported, unknown keys as the route says. */
export const parseOptions = (rejectUnknownKeys: boolean): SchemaAST.ParseOptions => ({
  errors: "all",
  onExcessProperty: rejectUnknownKeys ? "error" : "ignore",
  reportInput: true
})

/** One problem of a failed decode, before it becomes a line. */
type Leaf =
  | { readonly _tag: "Type"; readonly path: ReadonlyArray<PropertyKey>; readonly expected: string }
  | { readonly _tag: "Missing"; readonly path: ReadonlyArray<PropertyKey> }
  | { readonly _tag: "Unexpected"; readonly path: ReadonlyArray<PropertyKey> }
  | { readonly _tag: "Message"; readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

const valueAt = (root: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current = root
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}

/** The value an issue is about: the input it reports, else the value at its path in the request. */
const inputOf = (issue: SchemaIssue.Issue, root: unknown, path: ReadonlyArray<PropertyKey>): unknown =>
  "input" in issue ? issue.input : valueAt(root, path)

/** A value as the texts show it: strings quoted, numbers and the rest as themselves. */
const show = (value: unknown): string => {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value !== "object" || value === null) return String(value)
  try {
    return JSON.stringify(value)
  } catch {
    return String(value)
  }
}

/** The name of a type as the texts show it (`string`, `"me"`, `ReadonlyArray<string>`, `{ … }` for an object). */
const describe = (ast: SchemaAST.AST, nested: boolean): string => {
  const base = describeBase(ast, nested)
  // a value with its own checks reads as a refined type where it is part of another type's name
  return nested && ast.checks !== undefined && ast.checks.length > 0 ? `{ ${base} | filter }` : base
}

const describeBase = (ast: SchemaAST.AST, nested: boolean): string => {
  switch (ast._tag) {
    case "String":
      return "string"
    case "Number":
      return "number"
    case "Boolean":
      return "boolean"
    case "Null":
      return "null"
    case "Undefined":
      return "undefined"
    case "Literal":
      return typeof ast.literal === "string" ? JSON.stringify(ast.literal) : String(ast.literal)
    case "Objects":
      // inside another type's name, a struct whose keys are renamed on the wire names both of its sides
      return nested && ast.encoding !== undefined ? "(Struct (Encoded side) <-> Struct (Type side))" : "{ object }"
    case "Arrays":
      return ast.elements.length === 0 && ast.rest.length === 1
        ? `ReadonlyArray<${describe(ast.rest[0]!, true)}>`
        : `readonly [${[...ast.elements, ...ast.rest].map((element) => describe(element, true)).join(", ")}]`
    case "Union":
      return ast.types.map((member) => describe(member, true)).join(" | ")
    default:
      return ast._tag.toLowerCase()
  }
}

/** What a failed check expected, as the texts say it (`a string at least 1 character(s) long`). */
const checkExpectation = (filter: SchemaAST.Filter<unknown>): string => {
  const representation = filter.annotations?.["representation"] as { readonly id?: unknown; readonly payload?: unknown } | undefined
  const payload = (representation?.payload ?? {}) as Record<string, unknown>
  switch (representation?.id) {
    case "effect/schema/isMinLength":
      return `a string at least ${String(payload["minLength"])} character(s) long`
    case "effect/schema/isMaxLength":
      return `a string at most ${String(payload["maxLength"])} character(s) long`
    case "effect/schema/isPattern":
      return `a string matching the pattern ${String(payload["source"])}`
    case "effect/schema/isInt":
      return "an integer"
    case "effect/schema/isFinite":
      return "a finite number"
    case "effect/schema/isGreaterThanOrEqualTo":
      return `a number greater than or equal to ${String(payload["minimum"])}`
    case "effect/schema/isLessThanOrEqualTo":
      return `a number less than or equal to ${String(payload["maximum"])}`
    case "effect/schema/isBetween":
      return `a number between ${String(payload["minimum"])} and ${String(payload["maximum"])}`
    case "effect/schema/isGreaterThan":
      return payload["exclusiveMinimum"] === 0 ? "a positive number" : `a number greater than ${String(payload["exclusiveMinimum"])}`
    default: {
      const expected = filter.annotations?.["expected"]
      return typeof expected === "string" ? expected : "a valid value"
    }
  }
}

/** The text of an issue that carries one (a check's fixed failure text, a transformation's reason). */
const messageOf = (issue: SchemaIssue.Issue): string | undefined => {
  if (issue._tag === "InvalidValue" || issue._tag === "Forbidden") {
    const message = issue.annotations?.message
    return typeof message === "string" ? message : undefined
  }
  return undefined
}

/** The leaves of an issue (`root` is the decoded input, `path` where the issue is). */
const leaves = (issue: SchemaIssue.Issue, root: unknown, path: ReadonlyArray<PropertyKey>, options: SchemaAST.ParseOptions): Array<Leaf> => {
  switch (issue._tag) {
    case "Pointer":
      return leaves(issue.issue, root, [...path, ...issue.path], options)
    case "Composite": {
      // checks on one value: the first that fails is the problem
      const first = issue.issues[0]
      if (issue.issues.every((inner) => inner._tag === "Filter")) return leaves(first, root, path, options)
      return issue.issues.flatMap((inner) => leaves(inner, root, path, options))
    }
    case "MissingKey":
      return [{ _tag: "Missing", path }]
    case "UnexpectedKey":
      return [{ _tag: "Unexpected", path }]
    case "InvalidType":
      return [{ _tag: "Type", path, expected: describe(issue.ast, false) }]
    case "Filter": {
      const fixed = messageOf(issue.issue)
      if (fixed !== undefined) return [{ _tag: "Message", path, message: fixed }]
      if (issue.issue._tag !== "InvalidValue") return leaves(issue.issue, root, path, options)
      const actual = inputOf(issue, root, path)
      const raw = valueAt(root, path)
      // a text that is not a number, read as a number: the reading failed, not the check
      if (typeof actual === "number" && Number.isNaN(actual) && typeof raw === "string") {
        return [{ _tag: "Message", path, message: `Unable to decode ${JSON.stringify(raw)} into a number` }]
      }
      return [{ _tag: "Message", path, message: `Expected ${checkExpectation(issue.filter)}, actual ${show(actual)}` }]
    }
    case "Encoding": {
      const fixed = messageOf(issue.issue)
      return fixed !== undefined ? [{ _tag: "Message", path, message: fixed }] : leaves(issue.issue, root, path, options)
    }
    case "AnyOf": {
      // every member's own problem, in the union's order (not only the members the input could be)
      const value = inputOf(issue, root, path)
      return issue.ast.types.flatMap((member) => {
        const decoded = SchemaParser.decodeUnknownResult(Schema.make<Schema.Codec<unknown, unknown>>(member))(value, options)
        return Result.isFailure(decoded) ? leaves(decoded.failure, root, path, options) : []
      })
    }
    case "InvalidValue":
    case "Forbidden":
      return [{ _tag: "Message", path, message: messageOf(issue) ?? `Expected a valid value, actual ${show(inputOf(issue, root, path))}` }]
    case "OneOf":
      return [{ _tag: "Message", path, message: `Expected exactly one member to match the input ${show(inputOf(issue, root, path))}` }]
  }
}

const typeNames: Readonly<Record<string, string>> = {
  string: "string",
  number: "number",
  boolean: "boolean",
  null: "null"
}

const showPath = (prefix: string, path: ReadonlyArray<PropertyKey>): string =>
  [prefix, ...path.map((key) => (typeof key === "number" ? `[${key}]` : String(key)))].join(".").replace(/\.\[/g, "[")

/**
 * The service's problem lines for an issue of decoding `input` (`prefix`: `body`, `query` or
 * `params`), decoded with {@link parseOptions}: unknown keys first, then the other problems in
 * the order of the schema, then one line per path with a wrong type.
 */
export const describeProblems = (
  prefix: string,
  input: unknown,
  issue: SchemaIssue.Issue,
  options: SchemaAST.ParseOptions = parseOptions(true)
): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const unknownByParent = new Map<string, Array<string>>()
  const typeByPath = new Map<string, { path: ReadonlyArray<PropertyKey>; expected: Array<string> }>()
  for (const leaf of leaves(issue, input, [], options)) {
    switch (leaf._tag) {
      case "Unexpected": {
        const parent = showPath(prefix, leaf.path.slice(0, -1))
        const list = unknownByParent.get(parent) ?? []
        list.push(String(leaf.path[leaf.path.length - 1]))
        unknownByParent.set(parent, list)
        break
      }
      case "Missing":
        problems.push(`${showPath(prefix, leaf.path)} must be defined`)
        break
      case "Type": {
        const key = showPath(prefix, leaf.path)
        const entry = typeByPath.get(key) ?? { path: leaf.path, expected: [] }
        entry.expected.push(leaf.expected)
        typeByPath.set(key, entry)
        break
      }
      case "Message":
        if (/^Expected a string at least 1 character\(s\) long/.test(leaf.message)) {
          // the service's wording for an empty string where one is required (`body.email must not be empty`)
          problems.push(`${showPath(prefix, leaf.path)} must not be empty`)
        } else {
          const separator = leaf.message.startsWith("must ") ? " " : ": "
          problems.push(`${showPath(prefix, leaf.path)}${separator}${leaf.message}`)
        }
        break
    }
  }
  for (const [key, entry] of typeByPath) {
    const value = valueAt(input, entry.path)
    if (value === undefined && entry.path.length === 0) {
      problems.push(`${key} must be defined`)
      continue
    }
    const expected = entry.expected.filter((e) => e !== "undefined")
    const primary = expected.find((e) => e !== "null") ?? expected[0] ?? "value"
    const name = typeNames[primary] ?? (primary.startsWith("{") ? "object" : primary)
    problems.push(`${key} must be a \`${name}\` type, but the final value was: \`${JSON.stringify(value)}\`.`)
  }
  const unknownProblems = [...unknownByParent].map(([parent, keys]) => `${parent} contains unknown properties: ${keys.join(", ")}`)
  return [...unknownProblems, ...problems]
}
