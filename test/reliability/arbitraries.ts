/**
 * The generators of the reliability suite's property tests, built on effect's own `Arbitrary`
 * (generation and shrinking from schemas, `map`, `flatMap`, `all`, `array`) with the few shapes
 * the tests ask for: a choice among generators (weighted or not), one of some constants, a small
 * natural number, an optional value, a dictionary, a string matching a pattern, JSON values of a
 * bounded depth. `check` runs a property and fails the test with effect's report of the shrunk
 * counterexample.
 */
import { Arbitrary, Effect, Schema } from "effect"

/** `f` of each value (data-last, for `.pipe`). */
export const map: <A, B>(f: (value: A) => B) => (self: Arbitrary.Arbitrary<A>) => Arbitrary.Arbitrary<B> = Arbitrary.map

/** The values of the generator `f` makes of each value (data-last, for `.pipe`). */
export const chain: <A, B>(f: (value: A) => Arbitrary.Arbitrary<B>) => (self: Arbitrary.Arbitrary<A>) => Arbitrary.Arbitrary<B> = Arbitrary.flatMap

/** An integer from `min` to `max`, both included. */
export const integer = (options: { readonly min: number; readonly max: number }): Arbitrary.Arbitrary<number> =>
  Arbitrary.schema(Schema.Int.check(Schema.isBetween({ minimum: options.min, maximum: options.max })))

/** A natural number up to `max` (included; 2^31 - 1 by default). */
export const nat = (options: { readonly max?: number } = {}): Arbitrary.Arbitrary<number> => integer({ min: 0, max: options.max ?? 0x7fffffff })

/** Any string. */
export const string = (): Arbitrary.Arbitrary<string> => Arbitrary.schema(Schema.String)

/** `true` or `false`. */
export const boolean = (): Arbitrary.Arbitrary<boolean> => Arbitrary.schema(Schema.Boolean)

/** Always `value`. */
export const constant = <const A>(value: A): Arbitrary.Arbitrary<A> => Arbitrary.Constant(value)

/** One of `values` (shrinks toward the first). */
export const constantFrom = <const A>(...values: ReadonlyArray<A>): Arbitrary.Arbitrary<A> => {
  if (values.length === 0) throw new Error("constantFrom needs at least one value")
  return Arbitrary.map(integer({ min: 0, max: values.length - 1 }), (index) => values[index]!)
}

/** A generator with its weight, for {@link oneof}. */
export interface Weighted<A> {
  readonly weight: number
  readonly arbitrary: Arbitrary.Arbitrary<A>
}

const isWeighted = <A>(entry: Arbitrary.Arbitrary<A> | Weighted<A>): entry is Weighted<A> => !Arbitrary.isArbitrary(entry)

/**
 * One of the generators, each chosen with probability proportional to its weight (1 when given
 * without one); shrinks toward the first.
 */
export const oneof = <A>(...entries: ReadonlyArray<Arbitrary.Arbitrary<A> | Weighted<A>>): Arbitrary.Arbitrary<A> => {
  const weighted = entries.map((entry) => (isWeighted(entry) ? entry : { weight: 1, arbitrary: entry }))
  const total = weighted.reduce((sum, entry) => sum + entry.weight, 0)
  if (weighted.length === 0 || total <= 0) throw new Error("oneof needs at least one generator of positive weight")
  return Arbitrary.flatMap(integer({ min: 0, max: total - 1 }), (ticket) => {
    let rest = ticket
    for (const entry of weighted) {
      if (rest < entry.weight) return entry.arbitrary
      rest -= entry.weight
    }
    return weighted[weighted.length - 1]!.arbitrary
  })
}

/** `null` once in `freq` draws (5 by default), else a value of `arbitrary`. */
export const option = <A>(arbitrary: Arbitrary.Arbitrary<A>, options: { readonly freq?: number } = {}): Arbitrary.Arbitrary<A | null> => {
  const freq = options.freq ?? 5
  return oneof<A | null>({ weight: 1, arbitrary: constant(null) }, { weight: Math.max(1, freq - 1), arbitrary })
}

/** An array of `item`s. */
export const array = <A>(item: Arbitrary.Arbitrary<A>, options: { readonly minLength?: number; readonly maxLength?: number } = {}) =>
  Arbitrary.array(item, options)

/** An object with a value of each generator under its key. */
export const record = <const Fields extends Record<string, Arbitrary.Arbitrary<any>>>(fields: Fields) => Arbitrary.all(fields)

/** A tuple of one value of each generator. */
export const tuple = <const Items extends ReadonlyArray<Arbitrary.Arbitrary<any>>>(...items: Items) => Arbitrary.all(items)

/** An object of up to `maxKeys` (10 by default) entries with keys of `key` and values of `value`. */
export const dictionary = <V>(
  key: Arbitrary.Arbitrary<string>,
  value: Arbitrary.Arbitrary<V>,
  options: { readonly maxKeys?: number } = {}
): Arbitrary.Arbitrary<Record<string, V>> =>
  Arbitrary.map(
    Arbitrary.array(Arbitrary.all([key, value]), { maxLength: options.maxKeys ?? 10 }),
    (entries) => Object.fromEntries(entries) as Record<string, V>
  )

/** A string matching `pattern`. */
export const stringMatching = (pattern: RegExp): Arbitrary.Arbitrary<string> => Arbitrary.schema(Schema.String.check(Schema.isPattern(pattern)))

/** A uuid. */
export const uuid = (): Arbitrary.Arbitrary<string> => Arbitrary.schema(Schema.String.check(Schema.isUUID()))

const jsonLeaf: Arbitrary.Arbitrary<unknown> = oneof<unknown>(
  constant(null),
  boolean(),
  Arbitrary.schema(Schema.Finite),
  string()
)

/** A JSON value (null, booleans, finite numbers, strings, arrays, objects) nested at most `maxDepth` levels. */
export const jsonValue = (options: { readonly maxDepth: number }): Arbitrary.Arbitrary<unknown> =>
  options.maxDepth <= 0 ? jsonLeaf : oneof<unknown>(
    { weight: 3, arbitrary: jsonLeaf },
    { weight: 1, arbitrary: array(jsonValue({ maxDepth: options.maxDepth - 1 }), { maxLength: 4 }) },
    { weight: 1, arbitrary: dictionary(string(), jsonValue({ maxDepth: options.maxDepth - 1 }), { maxKeys: 4 }) }
  )

/** `count` values of `arbitrary` (e.g. to find out early that a schema cannot be generated). */
export const sample = <A>(arbitrary: Arbitrary.Arbitrary<A>, count: number): Effect.Effect<ReadonlyArray<A>, Arbitrary.SampleError> =>
  Arbitrary.sampleEffect(arbitrary, { count })

/**
 * Checks `property` on `runs` values of `arbitrary`: succeeds when it held for every one; dies
 * with effect's report of the shrunk counterexample otherwise. A property fails by returning
 * `false`, failing, or throwing (a failed `expect` included): thrown errors are shrunk as
 * failures, as a property-testing library's `assert` does.
 */
export const check = <A, E, R>(
  arbitrary: Arbitrary.Arbitrary<A>,
  property: (value: A) => boolean | Effect.Effect<boolean, E, R>,
  options: { readonly runs: number }
): Effect.Effect<void, never, R> =>
  Effect.flatMap(
    Arbitrary.checkEffect(
      arbitrary,
      (value) =>
        Effect.suspend(() => {
          const outcome = property(value)
          return Effect.isEffect(outcome) ? outcome : Effect.succeed(outcome)
        }).pipe(Effect.catchDefect((defect) => Effect.fail(defect))),
      { runs: options.runs }
    ),
    (result) =>
      result._tag === "Passed"
        ? Effect.void
        : Effect.die(new Error(Arbitrary.formatCheckFailure(result) ?? `the property was not checked: ${result._tag}`))
  )
