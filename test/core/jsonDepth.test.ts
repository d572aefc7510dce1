/**
 * Answers nested deeper than `maxJsonDepth` are refused before anything walks them; the depth is
 * read from the text (brackets outside strings), as deep as the parsed value, never deeper.
 */
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { jsonNestsDeeperThan, maxJsonDepth, parseJsonBounded } from "../../src/core/internal/call.js"

const arrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth)

describe("JSON depth of answers", () => {
  it(`a document nesting ${maxJsonDepth} levels is read, one level more is refused`, () => {
    expect(Result.isSuccess(parseJsonBounded(arrays(maxJsonDepth)))).toBe(true)
    expect(parseJsonBounded(arrays(maxJsonDepth + 1))).toEqual(Result.fail("nested too deeply"))
    expect(parseJsonBounded(`{"a":${arrays(maxJsonDepth)}}`)).toEqual(Result.fail("nested too deeply"))
  })

  it("many brackets side by side, or inside strings, are not depth", () => {
    const wide = JSON.stringify(Array.from({ length: 2000 }, () => ({ a: [1], b: "[[[[{{{{" })))
    expect(jsonNestsDeeperThan(wide, maxJsonDepth)).toBe(false)
    expect(Result.isSuccess(parseJsonBounded(wide))).toBe(true)
    const quoted = JSON.stringify({ a: `\\"${"[".repeat(3000)}` })
    expect(jsonNestsDeeperThan(quoted, maxJsonDepth)).toBe(false)
  })

  it("text that is not JSON is refused as such, even when deep", () => {
    expect(parseJsonBounded(`${arrays(3000)}x`)).toEqual(Result.fail("not valid JSON"))
  })
})
