/**
 * The benchmark page's copy of the last full run (`docs/BENCHMARKS.md`): the run's Markdown
 * (`bench/results/latest.md`) goes between the page's `bench:latest` markers, so the page's tables
 * are the run's, row for row (`test/docs/benchmarkTable.test.ts`).
 */

/** The markers around the copied tables. */
export const beginMarker = "<!-- bench:latest:begin -->"
export const endMarker = "<!-- bench:latest:end -->"

/** The page with `latest` between its markers; `null` when the page has no markers (in order). */
export const withLatestTables = (page: string, latest: string): string | null => {
  const from = page.indexOf(beginMarker)
  const to = page.indexOf(endMarker)
  if (from < 0 || to < from) return null
  return `${page.slice(0, from + beginMarker.length)}\n\n${latest.endsWith("\n") ? latest : `${latest}\n`}${page.slice(to)}`
}
