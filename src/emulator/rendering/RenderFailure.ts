/**
 * Why rendering a template failed, as the service words it: a `build` failure is what its bundler
 * (esbuild) reports for a source it cannot compile (`Build failed with 1 error: …`), a `runtime`
 * failure what the template throws while it renders (the service reports the thrown error as JSON,
 * `{"message":…}`), a `limit` failure the emulator's own bound on work and size.
 *
 * @module
 */
import type { Position } from "./TsxSyntax.js"

/** How a rendering failed. */
export type FailureKind = "build" | "runtime" | "limit"

/** A failed rendering (thrown inside the renderer, caught at its boundary). */
export class RenderFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string
  ) {
    super(message)
  }

  /** The `error` text the service puts into EMAIL_RENDERING_ERROR for this failure. */
  get errorText(): string {
    return this.kind === "runtime" ? JSON.stringify({ message: this.message }) : this.message
  }
}

/** A compile error in a file, worded as esbuild reports one. */
export const buildFailure = (file: string, at: Position, message: string) =>
  new RenderFailure("build", `Build failed with 1 error:\n${file}:${at.line}:${at.column}: ERROR: ${message}`)

/** An error the template throws while rendering (ReferenceError, TypeError, Error…). */
export const runtimeFailure = (message: string) => new RenderFailure("runtime", message)

/** One of the emulator's bounds was reached. */
export const limitFailure = (message: string) => new RenderFailure("limit", message)
