/**
 * Why rendering a template failed. A {@link RenderFailure} is the template's fault and carries the
 * `error` text of the service's EMAIL_RENDERING_ERROR: a `build` failure is what esbuild reports
 * for a source it cannot compile (`Build failed with 1 error:\nvirtual:/template.tsx:…`, as the
 * service's `bundleJavaScript` returns it), a `runtime` failure what the template throws while it
 * renders (the service reports the thrown error as JSON, `{"message":…}`), a `limit` failure the
 * emulator's own bound on time or memory. {@link RenderingUnavailable} is the emulator's: the
 * optional packages it renders with are not installed.
 *
 * @module
 */
import { Data } from "effect"

/** How a rendering failed. */
export type FailureKind = "build" | "runtime" | "limit"

/** A template that does not render, with the `error` text of EMAIL_RENDERING_ERROR. */
export class RenderFailure extends Data.TaggedError("RenderFailure")<{
  readonly kind: FailureKind
  /** The `error` the service puts into EMAIL_RENDERING_ERROR for this failure. */
  readonly errorText: string
}> {}

/** An error the template throws while rendering, worded as the service reports it (`{"message":…}`). */
export const runtimeFailure = (message: string): RenderFailure => new RenderFailure({ kind: "runtime", errorText: JSON.stringify({ message }) })

/** One of the emulator's bounds (time, memory) was reached. */
export const limitFailure = (message: string): RenderFailure => new RenderFailure({ kind: "limit", errorText: message })

/**
 * The packages the emulator renders e-mails with (optional peer dependencies of
 * stack-auth-effect) are not installed, or cannot run here (no worker threads): `packages` names
 * the missing ones, `message` says what to install.
 */
export class RenderingUnavailable extends Data.TaggedError("RenderingUnavailable")<{
  readonly packages: ReadonlyArray<string>
  readonly message: string
  readonly cause?: unknown
}> {}
