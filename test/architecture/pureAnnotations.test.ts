/**
 * Pure annotations are the build's job (`scripts/pure.ts`, run by `npm run build` over `dist/`
 * and by the bench over the sources it bundles), never hand-written in `src/` or `react/`.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"
import { annotatePure } from "../../scripts/pure.js"
import { projectRoot } from "./importRank.js"

const sources = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.tsx?$/.test(name) ? [path] : []
  })

const marks = (code: string) => (code.match(/#__PURE__|@__PURE__/g) ?? []).length

describe("pure annotations are added at build time", () => {
  it("no source file of src/ or react/ carries a hand-written pure annotation", () => {
    const offenders = [join(projectRoot, "src"), join(projectRoot, "react")]
      .flatMap(sources)
      .filter((file) => marks(readFileSync(file, "utf8")) > 0)
      .map((file) => relative(projectRoot, file))
    expect(offenders).toEqual([])
  })

  it("a value kept at module load is annotated, nested calls included", () => {
    const out = annotatePure(`export const Payload = Schema.Struct({ email: Schema.String.pipe(Schema.minLength(1)) })\n`, "x.ts")
    expect(out).toContain("/*#__PURE__*/Schema.Struct(")
    expect(out).toContain("/*#__PURE__*/Schema.String.pipe(/*#__PURE__*/Schema.minLength(1))")
  })

  it("a class built by a call is annotated (the known-error pattern)", () => {
    const out = annotatePure(`export class Gone extends KnownError("Gone", "GONE", 410)<{}> {}\n`, "x.ts")
    expect(marks(out)).toBe(1)
  })

  it("a call run for its effect, and calls inside functions, are left alone", () => {
    const out = annotatePure(`register(thing)\nexport const f = (a: number) => compute(a)\n`, "x.ts")
    expect(marks(out)).toBe(0)
  })

  it("TSX sources parse and keep their JSX", () => {
    const out = annotatePure(`export const Box = memo(() => <div className="x" />)\n`, "x.tsx")
    expect(marks(out)).toBe(1)
    expect(out).toContain("<div")
  })

  it("the known-error catalogue gets its annotations from the build (one per class at least)", () => {
    const file = join(projectRoot, "src", "core", "KnownErrors.ts")
    const classes = (readFileSync(file, "utf8").match(/^export class /gm) ?? []).length
    expect(classes).toBeGreaterThan(100)
    expect(marks(annotatePure(readFileSync(file, "utf8"), file))).toBeGreaterThanOrEqual(classes)
  })
})
