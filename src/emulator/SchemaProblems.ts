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
 *   reads ``must be a valid UUID`` and ``must be a `"me"` type``; members told apart by a
 *   literal property (`type: "shared"`) are looked up by it (a missing or unknown tag is the
 *   problem);
 * - a struct read from wire keys is checked property by property, so a property whose wire form
 *   is fine but whose value is not (a number in a query string) is reported beside the others;
 * - the wrong types at one path become one line naming the first expected type that is neither
 *   `null` nor `undefined`;
 * - of several checks on one value, the first that fails is reported.
 *
 * @module
 */
import { Result, Schema, SchemaAST, SchemaParser } from "effect"
import type { SchemaIssue } from "effect"

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
const inputOf = (issue: SchemaIssue.Issue, root: unknown, path: ReadonlyArray<PropertyKey>): unknown => "input" in issue ? issue.input : valueAt(root, path)

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
    case "Objects": {
      if (!nested) return "{ object }"
      // inside another type's name, a struct whose keys are renamed on the wire names both of its sides
      if (ast.encoding !== undefined) return "(Struct (Encoded side) <-> Struct (Type side))"
      const parts = [
        ...ast.propertySignatures.map((property) =>
          `readonly ${String(property.name)}${SchemaAST.isOptional(property.type) ? "?" : ""}: ${describe(property.type, true)}`
        ),
        ...ast.indexSignatures.map((index) => `readonly [x: ${describe(index.parameter, true)}]: ${describe(index.type, true)}`)
      ]
      return parts.length === 0 ? "{}" : `{ ${parts.join("; ")} }`
    }
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

/**
 * What a failed check expected, as the texts say it (`a string at least 1 character(s) long`).
 * A range checked on a number read from a query string names the bound it crossed (the page-size
 * limits read `greater than or equal to 1` / `less than or equal to 200`).
 */
const checkExpectation = (filter: SchemaAST.Filter<unknown>, actual: unknown, raw: unknown): string => {
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
      if (typeof raw === "string" && typeof actual === "number") {
        return actual < Number(payload["minimum"])
          ? `a number greater than or equal to ${String(payload["minimum"])}`
          : `a number less than or equal to ${String(payload["maximum"])}`
      }
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

/** A property of a struct read from wire keys: its wire key, its schema, whether the key may be absent. */
interface RenamedProperty {
  readonly wireKey: PropertyKey
  readonly ast: SchemaAST.AST
  readonly optional: boolean
}

/**
 * The properties of a struct whose keys are renamed on the wire (`Schema.encodeKeys`, the SDK's
 * `wireStruct`): the struct decodes from a struct of the same properties under their wire keys,
 * each property's wire form being its own encoded form. Undefined for any other AST.
 */
const keyRenaming = (ast: SchemaAST.AST): ReadonlyArray<RenamedProperty> | undefined => {
  if (ast._tag !== "Objects" || ast.encoding === undefined || ast.encoding.length !== 1) return undefined
  const wire = ast.encoding[0]!.to
  if (wire._tag !== "Objects" || wire.propertySignatures.length !== ast.propertySignatures.length) return undefined
  if (ast.indexSignatures.length > 0 || wire.indexSignatures.length > 0) return undefined
  const properties: Array<RenamedProperty> = []
  for (const [index, property] of ast.propertySignatures.entries()) {
    const wireProperty = wire.propertySignatures[index]!
    if (SchemaAST.toEncoded(property.type) !== wireProperty.type) return undefined
    properties.push({ wireKey: wireProperty.name, ast: property.type, optional: SchemaAST.isOptional(wireProperty.type) })
  }
  return properties
}

/**
 * The leaves of a struct read from wire keys, property by property: the unknown keys of its wire
 * shape, a missing required key, and each present property decoded on its own (so that a
 * property whose wire form is fine but whose value is not, e.g. a number in a query string, is
 * reported beside the others).
 */
const renamedStructLeaves = (
  properties: ReadonlyArray<RenamedProperty>,
  wireIssue: SchemaIssue.Issue,
  value: object,
  root: unknown,
  path: ReadonlyArray<PropertyKey>,
  options: SchemaAST.ParseOptions
): Array<Leaf> => {
  // the unknown keys of this struct (those of the structs inside come with their properties)
  const unknownKeys = leaves(wireIssue, root, path, options).filter((leaf) => leaf._tag === "Unexpected" && leaf.path.length === path.length + 1)
  const own = value as Record<PropertyKey, unknown>
  return [
    ...unknownKeys,
    ...properties.flatMap((property): Array<Leaf> => {
      const at = [...path, property.wireKey]
      if (!Object.prototype.hasOwnProperty.call(own, property.wireKey)) return property.optional ? [] : [{ _tag: "Missing", path: at }]
      const decoded = SchemaParser.decodeUnknownResult(Schema.make<Schema.Codec<unknown, unknown>>(property.ast))(own[property.wireKey], options)
      return Result.isFailure(decoded) ? leaves(decoded.failure, root, at, options) : []
    })
  ]
}

/** The members of a union told apart by one literal property (`type: "shared"`), by the property's value. */
interface Discriminator {
  readonly byValue: Map<string, Array<SchemaAST.AST>>
  readonly literals: Array<SchemaAST.Literal>
}

/** The members of a union told apart by literal properties, and the others. */
interface Discriminators {
  readonly keys: Map<PropertyKey, Discriminator>
  /** The members with a literal property. */
  readonly tagged: ReadonlyArray<SchemaAST.AST>
  /** The members without one, tried in order. */
  readonly others: ReadonlyArray<SchemaAST.AST>
}

/** The required literal properties of a member, on the wire (its encoded side). */
const literalProperties = (member: SchemaAST.AST): Array<readonly [PropertyKey, SchemaAST.Literal]> => {
  const wire = SchemaAST.toEncoded(member)
  if (wire._tag !== "Objects") return []
  return wire.propertySignatures.flatMap((property) =>
    property.type._tag === "Literal" && !SchemaAST.isOptional(property.type) ? [[property.name, property.type] as const] : []
  )
}

/** The union's members grouped by their first literal property whose value no earlier member took. */
const discriminators = (members: ReadonlyArray<SchemaAST.AST>): Discriminators => {
  const keys: Discriminators["keys"] = new Map()
  const tagged: Array<SchemaAST.AST> = []
  const others: Array<SchemaAST.AST> = []
  for (const member of members) {
    const literals = literalProperties(member)
    if (literals.length === 0) {
      others.push(member)
      continue
    }
    tagged.push(member)
    for (const [index, [key, literal]] of literals.entries()) {
      const entry: Discriminator = keys.get(key) ?? { byValue: new Map(), literals: [] }
      keys.set(key, entry)
      const value = String(literal.literal)
      const bucket = entry.byValue.get(value)
      if (bucket !== undefined && index < literals.length - 1) continue
      if (bucket !== undefined) bucket.push(member)
      else entry.byValue.set(value, [member])
      entry.literals.push(literal)
      break
    }
  }
  return { keys, tagged, others }
}

/**
 * The leaves of a value no member of a union accepts: members told apart by a literal property
 * are looked up by the value's property (a missing or unknown tag is the problem), every other
 * member is tried in order and its own problem reported.
 */
const unionLeaves = (
  union: SchemaAST.Union,
  value: unknown,
  root: unknown,
  path: ReadonlyArray<PropertyKey>,
  options: SchemaAST.ParseOptions
): Array<Leaf> => {
  const { keys, others, tagged } = discriminators(union.types)
  const out: Array<Leaf> = []
  let tried: Array<SchemaAST.AST> = []
  if (keys.size > 0) {
    if (typeof value === "object" && value !== null) {
      const own = value as Record<PropertyKey, unknown>
      for (const [key, entry] of keys) {
        if (!Object.prototype.hasOwnProperty.call(own, key)) {
          out.push({ _tag: "Missing", path: [...path, key] })
          continue
        }
        const bucket = entry.byValue.get(String(own[key]))
        if (bucket !== undefined) tried = tried.concat(bucket)
        else out.push({ _tag: "Type", path: [...path, key], expected: entry.literals.map((literal) => describe(literal, true)).join(" | ") })
      }
    } else {
      const expected = tagged.length === union.types.length ? union.types : tagged
      out.push({ _tag: "Type", path, expected: expected.map((member) => describe(member, true)).join(" | ") })
    }
  }
  for (const member of tried.concat(others)) {
    const decoded = SchemaParser.decodeUnknownResult(Schema.make<Schema.Codec<unknown, unknown>>(member))(value, options)
    if (Result.isFailure(decoded)) out.push(...leaves(decoded.failure, root, path, options))
  }
  return out
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
      const annotated = issue.filter.annotations?.message
      const fixed = typeof annotated === "string" ? annotated : messageOf(issue.issue)
      if (fixed !== undefined) return [{ _tag: "Message", path, message: fixed }]
      if (issue.issue._tag !== "InvalidValue") return leaves(issue.issue, root, path, options)
      const actual = inputOf(issue, root, path)
      const raw = valueAt(root, path)
      // a text that is not a number (or is blank), read as a number: the reading failed, not the check
      if (typeof actual === "number" && typeof raw === "string" && (Number.isNaN(actual) || raw.trim() === "")) {
        return [{ _tag: "Message", path, message: `Unable to decode ${JSON.stringify(raw)} into a number` }]
      }
      return [{ _tag: "Message", path, message: `Expected ${checkExpectation(issue.filter, actual, raw)}, actual ${show(actual)}` }]
    }
    case "Encoding": {
      const fixed = messageOf(issue.issue)
      if (fixed !== undefined) return [{ _tag: "Message", path, message: fixed }]
      const renamed = keyRenaming(issue.ast)
      const value = inputOf(issue, root, path)
      // a struct read from wire keys: every property's problem, not only those of its wire shape
      return renamed !== undefined && typeof value === "object" && value !== null && !Array.isArray(value)
        ? renamedStructLeaves(renamed, issue.issue, value, root, path, options)
        : leaves(issue.issue, root, path, options)
    }
    case "AnyOf":
      return unionLeaves(issue.ast, inputOf(issue, root, path), root, path, options)
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
