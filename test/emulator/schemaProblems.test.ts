/**
 * The problem lines of the emulator's SCHEMA_ERROR answers (`SchemaProblems.ts`), worded as the
 * service's yup validation words them: `schemaProblemTexts.json` holds requests the routes refuse
 * — the bad inputs of the other emulator tests and one input of each shape of problem found by
 * feeding every route's schemas wrong types, missing and unknown keys, bad nested values — with
 * the lines yup 1.7 writes for them (its `locale.ts` and `printValue`, the service's
 * `schema-fields.ts` and `smart-request.tsx` at 2f719903). Each is decoded with its route's
 * schema and described again. The recorded samples' schema errors are compared byte for byte in
 * `errorTexts.test.ts`.
 */
import { describe, expect, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { Result, SchemaParser } from "effect"
import { allRoutes } from "../../src/emulator/routes/index.js"
import { describeProblems, parseOptions } from "../../src/emulator/SchemaProblems.js"

interface Case {
  readonly endpoint: string
  readonly access: string
  readonly method: string
  readonly section: "params" | "query" | "body"
  readonly rejectUnknownKeys: boolean
  /** `absent`: the request had no body (`input` is then null). */
  readonly absent?: boolean
  readonly input: unknown
  readonly problems: ReadonlyArray<string>
}

const cases = JSON.parse(readFileSync(new URL("./schemaProblemTexts.json", import.meta.url), "utf8")) as ReadonlyArray<Case>

const endpointOf = (entry: Case) =>
  allRoutes.find((route) => route.endpoint.name === entry.endpoint && route.endpoint.access === entry.access && route.endpoint.method === entry.method)
    ?.endpoint

describe("SCHEMA_ERROR problem lines", () => {
  it("holds more than 200 cases, each for a route the emulator serves", () => {
    expect(cases.length).toBeGreaterThan(200)
    expect(cases.filter((entry) => endpointOf(entry) === undefined).map((entry) => entry.endpoint)).toEqual([])
  })

  it("reads every case's problems as before, line for line", () => {
    const differing = cases.flatMap((entry) => {
      const endpoint = endpointOf(entry)!
      const schema = entry.section === "body" ? endpoint.payload : endpoint[entry.section]
      const input = entry.absent === true ? undefined : entry.input
      const options = parseOptions(entry.rejectUnknownKeys)
      const decoded = SchemaParser.decodeUnknownResult(schema!)(input, options)
      const problems = Result.isSuccess(decoded) ? ["(accepted)"] : describeProblems(entry.section, input, decoded.failure, options)
      return JSON.stringify(problems) === JSON.stringify(entry.problems)
        ? []
        : [{ endpoint: entry.endpoint, section: entry.section, input, expected: entry.problems, actual: problems }]
    })
    expect(differing).toEqual([])
  })
})
