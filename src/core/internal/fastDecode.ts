/**
 * A fast path for decoding answers: a plain function compiled once per schema from its AST, for
 * the shapes the service's answers use (structs with renamed and defaulted keys, arrays, unions
 * of primitives and literals, refinements and synchronous transformations such as
 * `DateFromNumber`). It returns {@link miss} for any input it does not accept, and for any schema
 * part it does not know (then it is never used): the caller then decodes with `effect/Schema`
 * itself, which gives the same value or the typed error with its issue paths. So the fast path
 * only ever answers what the full decoder would answer, about ten times cheaper (no `Effect`, no
 * issue bookkeeping), which is most of a user list's decoding.
 *
 * The rules followed are `effect/Schema`'s with the default parse options: excess properties are
 * dropped, a missing required key is read as `undefined` (accepted when its type accepts it), an
 * optional missing key is left out, output keys in the struct's order; a transformation decodes
 * its source, applies its (synchronous) step, then checks its target.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type * as ParseResult from "effect/ParseResult"
import * as AST from "effect/SchemaAST"

/** What a fast decoder answers for an input it does not accept. */
export const miss: unique symbol = Symbol("stack-auth-effect/fastDecode/miss")

/** A compiled decoder: the decoded value, or {@link miss}. */
export type FastDecoder = (input: unknown) => unknown

const options: AST.ParseOptions = {}

const hasOwn = Object.prototype.hasOwnProperty

/** The value of a synchronous parse result (`Either`), or {@link miss} (a failure, or an effect that is not an `Either`). */
const settled = (result: unknown): unknown => {
  if (!Either.isEither(result)) return miss
  return Either.isRight(result) ? (result as Either.Right<ParseResult.ParseIssue, unknown>).right : miss
}

/** A member that answers its input itself, unchanged, when it accepts it. */
const isPrimitive = (ast: AST.AST): boolean =>
  ast._tag === "StringKeyword" || ast._tag === "NumberKeyword" || ast._tag === "BooleanKeyword" || ast._tag === "UndefinedKeyword" || ast._tag === "Literal"

const compiled = new WeakMap<AST.AST, FastDecoder | null>()

/** The fast decoder of `ast`, or `undefined` when the schema has a part it does not know. */
export const compile = (ast: AST.AST): FastDecoder | undefined => {
  const known = compiled.get(ast)
  if (known !== undefined) return known ?? undefined
  // a recursive schema reaches itself through a Suspend, which is not compiled: no cycles here
  compiled.set(ast, null)
  const decoder = build(ast)
  compiled.set(ast, decoder ?? null)
  return decoder
}

const build = (ast: AST.AST): FastDecoder | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => (typeof u === "string" ? u : miss)
    case "NumberKeyword":
      return (u) => (typeof u === "number" ? u : miss)
    case "BooleanKeyword":
      return (u) => (typeof u === "boolean" ? u : miss)
    case "UndefinedKeyword":
      return (u) => (u === undefined ? u : miss)
    case "UnknownKeyword":
    case "AnyKeyword":
      return (u) => u
    case "Literal": {
      const literal = ast.literal
      return (u) => (u === literal ? u : miss)
    }
    case "Union": {
      // Effect tries a union's members in its own order (literal-keyed candidates first): with at
      // most one member that is not a primitive keyword or a literal, any member accepting an
      // input answers the same value, whatever the order
      if (ast.types.filter((member) => !isPrimitive(member)).length > 1) return undefined
      const members: Array<FastDecoder> = []
      for (const member of ast.types) {
        const decoder = compile(member)
        if (decoder === undefined) return undefined
        members.push(decoder)
      }
      return (u) => {
        for (const member of members) {
          const value = member(u)
          if (value !== miss) return value
        }
        return miss
      }
    }
    case "TupleType": {
      // arrays only: `Schema.Array(item)`
      if (ast.elements.length !== 0 || ast.rest.length !== 1) return undefined
      const item = compile(ast.rest[0]!.type)
      if (item === undefined) return undefined
      return (u) => {
        if (!Array.isArray(u)) return miss
        const out: Array<unknown> = new Array(u.length)
        for (let i = 0; i < u.length; i++) {
          const value = item(u[i])
          if (value === miss) return miss
          out[i] = value
        }
        return out
      }
    }
    case "TypeLiteral": {
      if (ast.indexSignatures.length !== 0) return undefined
      const properties: Array<{ readonly name: string; readonly optional: boolean; readonly decode: FastDecoder }> = []
      for (const signature of ast.propertySignatures) {
        if (typeof signature.name !== "string") return undefined
        const decode = compile(signature.type)
        if (decode === undefined) return undefined
        properties.push({ name: signature.name, optional: signature.isOptional, decode })
      }
      return (u) => {
        if (typeof u !== "object" || u === null || Array.isArray(u)) return miss
        const input = u as Record<string, unknown>
        const out: Record<string, unknown> = {}
        for (const property of properties) {
          const present = hasOwn.call(input, property.name)
          if (!present && property.optional) continue
          const value = property.decode(present ? input[property.name] : undefined)
          if (value === miss) return miss
          out[property.name] = value
        }
        return out
      }
    }
    case "Refinement": {
      const from = compile(ast.from)
      if (from === undefined) return undefined
      const refinement = ast
      return (u) => {
        const value = from(u)
        if (value === miss) return miss
        return Option.isNone(refinement.filter(value, options, refinement)) ? value : miss
      }
    }
    case "Declaration": {
      const check = ast.decodeUnknown(...ast.typeParameters)
      const declaration = ast
      return (u) => settled(check(u, options, declaration))
    }
    case "Transformation":
      return transformation(ast)
    default:
      return undefined
  }
}

const transformation = (ast: AST.Transformation): FastDecoder | undefined => {
  const from = compile(ast.from)
  const to = compile(ast.to)
  if (from === undefined || to === undefined) return undefined
  const kind = ast.transformation
  switch (kind._tag) {
    case "ComposeTransformation":
      return (u) => {
        const value = from(u)
        return value === miss ? miss : to(value)
      }
    case "FinalTransformation":
      return (u) => {
        const value = from(u)
        if (value === miss) return miss
        const step = settled(kind.decode(value, options, ast, u))
        return step === miss ? miss : to(step)
      }
    case "TypeLiteralTransformation": {
      const renames = kind.propertySignatureTransformations
      const fused = fusedRenames(ast, from, renames)
      if (fused !== undefined) return fused
      return (u) => {
        const value = from(u)
        if (value === miss || typeof value !== "object" || value === null) return miss
        // renamed in place, as Effect does, but never in the caller's own object
        const record = (value === u ? { ...value } : value) as Record<PropertyKey, unknown>
        for (const rename of renames) {
          const option = rename.decode(hasOwn.call(record, rename.from) ? Option.some(record[rename.from]) : Option.none())
          delete record[rename.from]
          if (Option.isSome(option)) record[rename.to] = option.value
        }
        return to(record)
      }
    }
  }
}

/**
 * A struct with renamed keys (`fromKey`, defaults) decoded in one pass: each key of the target
 * struct read from where the renaming puts it, without renaming the source object in place (an
 * object whose keys are deleted becomes slow to read). Only for a target struct whose keys are
 * plain strings and renamings that do not chain (no key renamed to another renaming's source).
 */
const fusedRenames = (
  ast: AST.Transformation,
  from: FastDecoder,
  renames: ReadonlyArray<AST.PropertySignatureTransformation>
): FastDecoder | undefined => {
  const target = ast.to
  if (target._tag !== "TypeLiteral" || target.indexSignatures.length !== 0) return undefined
  const sources = new Set(renames.map((rename) => rename.from))
  if (renames.some((rename) => sources.has(rename.to))) return undefined
  const byTarget = new Map(renames.map((rename) => [rename.to, rename]))
  const properties: Array<{
    readonly name: string
    readonly optional: boolean
    readonly decode: FastDecoder
    readonly rename: AST.PropertySignatureTransformation | undefined
    readonly removed: boolean
  }> = []
  for (const signature of target.propertySignatures) {
    if (typeof signature.name !== "string") return undefined
    const decode = compile(signature.type)
    if (decode === undefined) return undefined
    const rename = byTarget.get(signature.name)
    properties.push({ name: signature.name, optional: signature.isOptional, decode, rename, removed: rename === undefined && sources.has(signature.name) })
  }
  return (u) => {
    const value = from(u)
    if (value === miss || typeof value !== "object" || value === null || Array.isArray(value)) return miss
    const source = value as Record<PropertyKey, unknown>
    const out: Record<string, unknown> = {}
    for (const property of properties) {
      let present: boolean
      let item: unknown
      if (property.rename !== undefined) {
        const key = property.rename.from
        const option = property.rename.decode(hasOwn.call(source, key) ? Option.some(source[key]) : Option.none())
        present = Option.isSome(option)
        item = present ? (option as Option.Some<unknown>).value : undefined
      } else {
        present = !property.removed && hasOwn.call(source, property.name)
        item = present ? source[property.name] : undefined
      }
      if (!present && property.optional) continue
      const decoded = property.decode(item)
      if (decoded === miss) return miss
      out[property.name] = decoded
    }
    return out
  }
}
