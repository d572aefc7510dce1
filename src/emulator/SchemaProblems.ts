/**
 * The problem lines of the emulator's `SCHEMA_ERROR` answers (`Request validation failed on …`),
 * read from a schema issue and worded as the service words them. The service validates requests
 * with yup 1.7 (`apps/backend/src/route-handlers/smart-request.tsx`, the fields of
 * `packages/stack-shared/src/schema-fields.ts` at 2f719903), so the lines are yup's texts
 * (`src/locale.ts`, `src/util/printValue.ts` of yup 1.7.1) for the same problem:
 *
 * - `body.x must be defined`, `body.x cannot be null`;
 * - ``body.x must be a `string` type, but the final value was: `5`.``, the value printed as yup
 *   prints it (objects as indented JSON), with `(cast from the value …)` where yup's cast changed
 *   it (a text read as a number reads `NaN`);
 * - a set of literals is a yup `oneOf`: `body.type must be one of the following values: totp`;
 * - checks read as yup's (`must be at least 3 characters`, `must be less than or equal to 200`,
 *   `must match the following: "/^…$/"`, `must be an integer`) or as the SDK's fixed texts,
 *   which are the service's (`params.user_id must be a valid UUID`);
 * - in a union, `null`/`undefined` and literal sentinels (`"me"`) are modifiers of one yup field:
 *   a value that fails the field's checks is reported once, by those checks;
 * - an object's fields come in the order of its schema, then the object's own test
 *   (`body contains unknown properties: x`), as yup's `object.ts` sorts them.
 *
 * The issue tree is walked into flat leaves (a wrong type, a missing key, an unknown key, a failed
 * check with its text); Effect's own issue formatter is not used.
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
  | { readonly _tag: "Type"; readonly path: ReadonlyArray<PropertyKey>; readonly asts: ReadonlyArray<SchemaAST.AST> }
  | { readonly _tag: "Missing"; readonly path: ReadonlyArray<PropertyKey> }
  | { readonly _tag: "Unexpected"; readonly path: ReadonlyArray<PropertyKey> }
  | { readonly _tag: "Message"; readonly path: ReadonlyArray<PropertyKey>; readonly message: string }
  /** A number read from a text that is not one (`"abc"`, `""`): yup's cast gives `NaN`. */
  | { readonly _tag: "NotANumber"; readonly path: ReadonlyArray<PropertyKey> }

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

/**
 * A value as yup prints it in its messages (`printValue` of yup 1.7, the service's schema
 * library): `null`, `true`, numbers as themselves (`NaN`, `-0`), strings in plain double quotes
 * (no escaping) when `quoteStrings`, objects and arrays as 2-space indented JSON whose strings
 * are printed the same way (so `{"first":"Wire"}` reads `{\n  "first": "\\"Wire\\""\n}`).
 */
export const printValue = (value: unknown, quoteStrings = false): string => {
  const simple = printSimpleValue(value, quoteStrings)
  if (simple !== null) return simple
  return JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, inner: unknown) {
      const printed = printSimpleValue(this[key], quoteStrings)
      return printed !== null ? printed : inner
    },
    2
  )
}

const printSimpleValue = (value: unknown, quoteStrings: boolean): string | null => {
  if (value === null || value === undefined || value === true || value === false) return String(value)
  if (typeof value === "number") return Number.isNaN(value) ? "NaN" : Object.is(value, -0) ? "-0" : String(value)
  if (typeof value === "string") return quoteStrings ? `"${value}"` : value
  if (typeof value === "bigint") return null
  if (typeof value === "function") return `[Function ${value.name === "" ? "anonymous" : value.name}]`
  if (typeof value === "symbol") return value.toString().replace(/^Symbol\((.*)\)(.*)$/, "Symbol($1)")
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? String(value) : value.toISOString()
  if (value instanceof Error) return `[${Error.prototype.toString.call(value)}]`
  if (value instanceof RegExp) return value.toString()
  return null
}

/** What a schema expects, as yup names its schema types (`string`, `number`, `boolean`, `object`, `array`). */
type Kind = "string" | "number" | "boolean" | "object" | "array" | "mixed"

const kindOf = (ast: SchemaAST.AST): Kind => {
  switch (ast._tag) {
    case "String":
    case "TemplateLiteral":
      return "string"
    case "Number":
      return "number"
    case "Boolean":
      return "boolean"
    case "Objects":
      return "object"
    case "Arrays":
      return "array"
    case "Literal":
      return typeof ast.literal === "string" ? "string" : typeof ast.literal === "number" ? "number" : typeof ast.literal === "boolean" ? "boolean" : "mixed"
    case "Union": {
      const kinds = new Set(ast.types.filter((member) => !isAbsence(member)).map(kindOf))
      return kinds.size === 1 ? [...kinds][0]! : "mixed"
    }
    default:
      return "mixed"
  }
}

/** `null` and `undefined`: in yup these are the `nullable()` / `optional()` of a field, not a type of their own. */
const isAbsence = (ast: SchemaAST.AST): boolean => ast._tag === "Null" || ast._tag === "Undefined" || ast._tag === "Void"

/** Literals (`"me"`, `"S256"`, `false`): the values of a yup `oneOf`, or a sentinel the service swaps for a value. */
const isLiteral = (ast: SchemaAST.AST): ast is SchemaAST.Literal => ast._tag === "Literal"

/**
 * The text of a failed check, as yup's locale (1.7, `src/locale.ts`) words the same check:
 * `must be at least 3 characters`, `must match the following: "/^a$/"`, `must be an integer`,
 * `must be greater than or equal to 1`, `must be a positive number`; a required text that is
 * empty reads as the service's own `nonEmpty` check (`must not be empty`, `schema-fields.ts`).
 * A range names the bound the value crossed; any other check reads yup's default `is invalid`.
 */
const checkMessage = (filter: SchemaAST.Filter<unknown>, actual: unknown): string => {
  const representation = filter.annotations?.["representation"] as { readonly id?: unknown; readonly payload?: unknown } | undefined
  const payload = (representation?.payload ?? {}) as Record<string, unknown>
  switch (representation?.id) {
    case "effect/schema/isMinLength":
      return payload["minLength"] === 1 ? "must not be empty" : `must be at least ${String(payload["minLength"])} characters`
    case "effect/schema/isMaxLength":
      return `must be at most ${String(payload["maxLength"])} characters`
    case "effect/schema/isBetweenLength":
      return typeof actual === "string" && actual.length < Number(payload["minimum"])
        ? Number(payload["minimum"]) === 1 ? "must not be empty" : `must be at least ${String(payload["minimum"])} characters`
        : `must be at most ${String(payload["maximum"])} characters`
    case "effect/schema/isPattern":
      return `must match the following: "/${String(payload["source"])}/${String(payload["flags"] ?? "")}"`
    case "effect/schema/isInt":
      return "must be an integer"
    case "effect/schema/isGreaterThanOrEqualTo":
      return `must be greater than or equal to ${String(payload["minimum"])}`
    case "effect/schema/isLessThanOrEqualTo":
      return `must be less than or equal to ${String(payload["maximum"])}`
    case "effect/schema/isBetween":
      return typeof actual === "number" && actual < Number(payload["minimum"])
        ? `must be greater than or equal to ${String(payload["minimum"])}`
        : `must be less than or equal to ${String(payload["maximum"])}`
    case "effect/schema/isGreaterThan":
      return payload["exclusiveMinimum"] === 0 ? "must be a positive number" : `must be greater than ${String(payload["exclusiveMinimum"])}`
    case "effect/schema/isLessThan":
      return payload["exclusiveMaximum"] === 0 ? "must be a negative number" : `must be less than ${String(payload["exclusiveMaximum"])}`
    default:
      return "is invalid"
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
        else out.push({ _tag: "Type", path: [...path, key], asts: entry.literals })
      }
    } else {
      const expected = tagged.length === union.types.length ? union.types : tagged
      out.push({ _tag: "Type", path, asts: expected })
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
      // checks on one value: yup runs every test, so every failing check is a problem
      return issue.issues.flatMap((inner) => leaves(inner, root, path, options))
    }
    case "MissingKey":
      return [{ _tag: "Missing", path }]
    case "UnexpectedKey":
      return [{ _tag: "Unexpected", path }]
    case "InvalidType":
      return [{ _tag: "Type", path, asts: [issue.ast] }]
    case "Filter": {
      const annotated = issue.filter.annotations?.message
      const fixed = typeof annotated === "string" ? annotated : messageOf(issue.issue)
      if (fixed !== undefined) return [{ _tag: "Message", path, message: fixed }]
      if (issue.issue._tag !== "InvalidValue") return leaves(issue.issue, root, path, options)
      const actual = inputOf(issue, root, path)
      const raw = valueAt(root, path)
      // a text that is not a number (or is blank), read as a number: yup's cast gives NaN
      if (typeof actual === "number" && typeof raw === "string" && (Number.isNaN(actual) || raw.trim() === "")) {
        return [{ _tag: "NotANumber", path }]
      }
      return [{ _tag: "Message", path, message: checkMessage(issue.filter, actual) }]
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
      return [{ _tag: "Message", path, message: messageOf(issue) ?? "is invalid" }]
    case "OneOf":
      return [{ _tag: "Message", path, message: "is invalid" }]
  }
}

const showPath = (prefix: string, path: ReadonlyArray<PropertyKey>): string =>
  [prefix, ...path.map((key) => (typeof key === "number" ? `[${key}]` : String(key)))].join(".").replace(/\.\[/g, "[")

const isPlainObject = (value: unknown): boolean => typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * yup's `notType` text (`locale.ts`): ``x must be a `number` type, but the final value was: `NaN` ``
 * and, when its cast changed the value, `` (cast from the value `"abc"`).``.
 */
const notTypeText = (path: string, kind: Kind, final: unknown, original: unknown): string => {
  const cast = original !== null && original !== undefined && !Object.is(original, final) ? ` (cast from the value \`${printValue(original, true)}\`).` : "."
  return kind === "mixed"
    ? `${path} must match the configured type. The validated value was: \`${printValue(final, true)}\`${cast}`
    : `${path} must be a \`${kind}\` type, but the final value was: \`${printValue(final, true)}\`${cast}`
}

/** yup's number cast (`number.ts`): texts lose their blanks and read with `+`, anything else with `parseFloat`. */
const castNumber = (value: unknown): unknown => {
  if (typeof value === "number") return value
  if (typeof value === "string") {
    const compact = value.replace(/\s/g, "")
    return compact === "" ? Number.NaN : +compact
  }
  return Number.parseFloat(value as string)
}

/**
 * The lines of the wrong types found at one path, as yup reports a field of that type: `cannot
 * be null` for null, the `notType` text for a value yup cannot cast, and for a set of literals
 * (a yup `oneOf`) `must be one of the following values: a, b` (after the `notType` text when the
 * value is not even of the literals' type: yup runs both tests).
 */
const typeLines = (
  path: string,
  value: unknown,
  asts: ReadonlyArray<SchemaAST.AST>,
  checksOfText: (ast: SchemaAST.AST, text: string) => ReadonlyArray<string>
): Array<string> => {
  if (value === undefined) return [`${path} must be defined`]
  if (value === null) return [`${path} cannot be null`]
  const present = asts.filter((ast) => !isAbsence(ast))
  // only null or undefined expected: the modifiers of a field whose other problems are reported
  if (present.length === 0) return []
  const others = present.filter((ast) => !isLiteral(ast))
  if (others.length > 0) {
    const kind = kindOf(others[0]!)
    if (kind === "number") return [notTypeText(path, kind, castNumber(value), value)]
    // yup casts a number or boolean to its text before the text's checks (`5` → "must be a valid UUID")
    if (kind === "string" && (typeof value === "number" || typeof value === "boolean")) {
      const checks = checksOfText(others[0]!, String(value))
      if (checks.length > 0) return [...checks]
    }
    return [notTypeText(path, kind, value, value)]
  }
  const literals = present.filter(isLiteral)
  const oneOf = `${path} must be one of the following values: ${literals.map((literal) => String(literal.literal)).join(", ")}`
  const kind = kindOf(literals[0]!)
  const castable = kind === "string"
    ? !Array.isArray(value) && !isPlainObject(value)
    : kind === "boolean"
    ? typeof value === "boolean" || /^(true|1|false|0)$/i.test(String(value))
    : kind === "number"
    ? !Number.isNaN(castNumber(value))
    : true
  if (castable) return [oneOf]
  return [kind === "number" ? notTypeText(path, kind, castNumber(value), value) : notTypeText(path, kind, value, value), oneOf]
}

/**
 * The line of a problem that carries its own text: texts that start with `must`, `is`, `cannot`
 * or `contains` follow the path (`body.user_id must be a valid UUID`); a text of its own that
 * starts with a capital (a yup test's fixed message, e.g. the permission-id pattern's `Only
 * lowercase letters, …`) stands alone, as yup writes a message without `${path}`.
 */
const messageLine = (path: string, message: string): string =>
  /^(must|is|cannot|contains) /.test(message) ? `${path} ${message}` : /^[A-Z]/.test(message) ? message : `${path}: ${message}`

/** The problems found at one path, in the order they were found. */
interface Node {
  readonly path: ReadonlyArray<PropertyKey>
  readonly leaves: Array<Leaf>
  /** The unknown keys of the object at this path. */
  readonly unknownKeys: Array<string>
  readonly children: Map<PropertyKey, Node>
}

const makeNode = (path: ReadonlyArray<PropertyKey>): Node => ({ path, leaves: [], unknownKeys: [], children: new Map() })

/**
 * The service's problem lines for an issue of decoding `input` (`prefix`: `body`, `query` or
 * `params`), decoded with {@link parseOptions}, in yup's order (`object.ts`): an object's fields
 * in the order of its schema (each field's own problems, then those of the fields inside it),
 * then the object's own test, `contains unknown properties` (the service's `yupObject`,
 * `packages/stack-shared/src/schema-fields.ts` at 2f719903).
 */
export const describeProblems = (
  prefix: string,
  input: unknown,
  issue: SchemaIssue.Issue,
  options: SchemaAST.ParseOptions = parseOptions(true)
): ReadonlyArray<string> => {
  const root = makeNode([])
  const nodeAt = (path: ReadonlyArray<PropertyKey>): Node => {
    let node = root
    for (const [index, key] of path.entries()) {
      let child = node.children.get(key)
      if (child === undefined) {
        child = makeNode(path.slice(0, index + 1))
        node.children.set(key, child)
      }
      node = child
    }
    return node
  }
  for (const leaf of leaves(issue, input, [], options)) {
    if (leaf._tag === "Unexpected") {
      const parent = nodeAt(leaf.path.slice(0, -1))
      const key = String(leaf.path[leaf.path.length - 1])
      if (!parent.unknownKeys.includes(key)) parent.unknownKeys.push(key)
    } else {
      nodeAt(leaf.path).leaves.push(leaf)
    }
  }
  // the lines of a text field's checks for the text yup casts a number or boolean to
  const checksOfText = (at: ReadonlyArray<PropertyKey>) => (ast: SchemaAST.AST, text: string): ReadonlyArray<string> => {
    const decoded = SchemaParser.decodeUnknownResult(Schema.make<Schema.Codec<unknown, unknown>>(ast))(text, options)
    if (Result.isSuccess(decoded)) return []
    return leaves(decoded.failure, text, [], options).flatMap((leaf) => leaf._tag === "Message" ? [messageLine(showPath(prefix, at), leaf.message)] : [])
  }
  const lines: Array<string> = []
  const push = (line: string) => {
    if (!lines.includes(line)) lines.push(line)
  }
  const emit = (node: Node): void => {
    const path = showPath(prefix, node.path)
    const value = valueAt(input, node.path)
    const own = node.leaves
    const messages = own.filter((leaf) => leaf._tag === "Message")
    const types = own.filter((leaf) => leaf._tag === "Type")
    // a value that passed a member's type but failed its checks: the literals beside it (`"me"`) and
    // null are modifiers of that one yup field, not problems of their own
    const typeAsts = types.flatMap((leaf) => leaf.asts).filter((ast) => messages.length === 0 || !(isLiteral(ast) || isAbsence(ast)))
    if (own.some((leaf) => leaf._tag === "Missing") || (value === undefined && (types.length > 0 || messages.length > 0))) {
      push(`${path} must be defined`)
    } else {
      if (typeAsts.length > 0) typeLines(path, value, typeAsts, checksOfText(node.path)).forEach(push)
      if (own.some((leaf) => leaf._tag === "NotANumber")) push(notTypeText(path, "number", castNumber(value), value))
      const objectLike = isPlainObject(value)
      if (!objectLike) messages.forEach((leaf) => push(messageLine(path, leaf.message)))
      for (const child of node.children.values()) emit(child)
      if (objectLike) messages.forEach((leaf) => push(messageLine(path, leaf.message)))
    }
    if (node.unknownKeys.length > 0) push(`${path} contains unknown properties: ${node.unknownKeys.join(", ")}`)
  }
  emit(root)
  return lines
}
