/**
 * The bounds of one e-mail rendering (`EmulatorOptions.emailRendering`, CLI
 * `--email-render-timeout` / `--email-render-memory`), enforced by `RenderWorker.ts`.
 *
 * @module
 */

/** The bounds of one rendering. */
export interface RenderLimits {
  /** Longest a rendering may run, in milliseconds (its worker is terminated then). */
  readonly timeoutMillis: number
  /** Largest old-generation heap of the worker, in MB (`resourceLimits.maxOldGenerationSizeMb`). */
  readonly maxMemoryMb: number
}

/** The emulator's default bounds: 10 s, 512 MB. */
export const defaultRenderLimits: RenderLimits = { timeoutMillis: 10_000, maxMemoryMb: 512 }
