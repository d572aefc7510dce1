/**
 * Every figure of the benchmark table (docs/BENCHMARKS.md, linked from the README) comes from the
 * bench: the table and its "Measured …" line are those `npm run bench` wrote to
 * `bench/results/latest.md`, copied, not retyped.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const repoRoot = new URL("../../", import.meta.url)
const read = (path: string) => readFileSync(new URL(path, repoRoot), "utf8")

describe("docs/BENCHMARKS.md", () => {
  it("show the last run's table and its machine line, row for row (bench/results/latest.md)", () => {
    const latest = read("bench/results/latest.md").split("\n").filter((line) => line.length > 0)
    const benchmarks = read("docs/BENCHMARKS.md")
    const pageRows = benchmarks.split("\n").filter((line) => line.startsWith("| "))
    const latestRows = latest.filter((line) => line.startsWith("| "))
    expect(latestRows.length).toBeGreaterThan(20)
    expect(pageRows.slice(0, latestRows.length)).toEqual(latestRows)
    expect(benchmarks).toContain(latest[0])
  })

  it("agree with bench/results/latest.json on when and where", () => {
    const json = JSON.parse(read("bench/results/latest.json")) as { readonly machine: { readonly date: string; readonly parts: unknown } }
    expect(read("bench/results/latest.md").startsWith(`Measured ${json.machine.date} `)).toBe(true)
  })
})
