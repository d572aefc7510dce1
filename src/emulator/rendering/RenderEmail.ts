/**
 * Renders an e-mail from a template source and a theme source as the service's
 * `renderEmailWithTemplate` does (apps/backend/src/lib/email-rendering.tsx at stack-auth 2f719903),
 * with the same packages: the sources are bundled with esbuild as the service bundles them
 * (`Bundle.ts`: the template's `variablesSchema` checks the variables, in preview mode over the
 * template's `PreviewVariables`; `EmailTemplate` gets `{ variables, user, project }` (preview:
 * "John Doe", "My Project" unless given); the theme's `EmailTheme` wraps it with the theme props
 * (preview: merged with `EmailTheme.PreviewProps`); `render` of `@react-email/components` writes the
 * HTML and the plain text; `findComponentValue` reads `<Subject>` and `<NotificationCategory>`),
 * then run off the event loop within a time and memory bound (`RenderWorker.ts`).
 *
 * The packages are optional peer dependencies of stack-auth-effect ({@link renderingPackages});
 * without them every rendering fails with {@link RenderingUnavailable} naming the missing ones.
 *
 * @module
 */
import { Effect } from "effect"
import type { Esbuild } from "./Bundle.js"
import { bundle, renderFiles, runtimeImports } from "./Bundle.js"
import { limitFailure, RenderFailure, RenderingUnavailable, runtimeFailure } from "./RenderFailure.js"
import { defaultRenderLimits } from "./Limits.js"
import type { RenderLimits } from "./Limits.js"
import { runInWorker } from "./RenderWorker.js"

export { defaultRenderLimits } from "./Limits.js"
export type { RenderLimits } from "./Limits.js"

/** What a rendering gives. */
export interface RenderedEmail {
  readonly html: string
  readonly text: string
  readonly subject: string | undefined
  readonly notificationCategory: string | undefined
}

/** The project logos a theme shows (`ProjectLogo`). */
export interface ProjectLogos {
  readonly logoUrl?: string | undefined
  readonly logoFullUrl?: string | undefined
  readonly logoDarkModeUrl?: string | undefined
  readonly logoFullDarkModeUrl?: string | undefined
}

/** What a template is rendered with. */
export interface RenderOptions {
  readonly user?: { readonly displayName: string | null } | undefined
  readonly project?: { readonly displayName: string } | undefined
  readonly variables?: Readonly<Record<string, string | number | boolean | null>> | undefined
  readonly themeProps?: { readonly unsubscribeLink?: string | undefined; readonly projectLogos: ProjectLogos } | undefined
  /** Preview (the dashboard's and `PATCH /internal/email-templates/{id}`'s rendering). */
  readonly previewMode?: boolean | undefined
  /** Bounds of the rendering ({@link defaultRenderLimits} when absent). */
  readonly limits?: RenderLimits | undefined
}

/**
 * The optional peer dependencies the emulator renders e-mails with (the service's: esbuild to
 * bundle, React, `@react-email/components` — with its `@react-email/render` — and arktype to run).
 */
export const renderingPackages: ReadonlyArray<string> = ["esbuild", "react", "react-dom", "@react-email/components", "arktype"]

/** The install line for missing rendering packages. */
export const installLine = (packages: ReadonlyArray<string>): string => `npm install --save-dev ${packages.join(" ")}`

interface Machinery {
  readonly esbuild: Esbuild
  readonly Worker: typeof import("node:worker_threads").Worker
}

let machinery: Promise<Machinery> | undefined

const unavailable = (packages: ReadonlyArray<string>, cause: unknown) =>
  new RenderingUnavailable({
    packages,
    message: `The emulator renders e-mail templates with ${packages.join(", ")}: optional peer dependencies of stack-auth-effect ` +
      `that are not installed. Install them next to stack-auth-effect: ${installLine(packages)}`,
    cause
  })

/** Where the worker resolves the packages from: the emulator's own location (its `node_modules`). */
const packageBase = import.meta.url

/** The runtime has no Node.js worker threads (a browser running the emulator under msw). */
const noWorkerThreads = (cause: unknown) =>
  new RenderingUnavailable({
    packages: [],
    message: `The emulator renders e-mail templates in a Node.js worker thread, which this runtime does not offer (${
      cause instanceof Error ? cause.message : String(cause)
    })`,
    cause
  })

const loadOnce = async (): Promise<Machinery> => {
  const [nodeModule, threads] = await Promise.all([import("node:module"), import("node:worker_threads")]).catch((cause: unknown) => {
    throw noWorkerThreads(cause)
  })
  const require = nodeModule.createRequire(packageBase)
  const missing = renderingPackages.filter((name) => {
    try {
      require.resolve(name)
      return false
    } catch {
      return true
    }
  })
  if (missing.length > 0) throw unavailable(missing, undefined)
  const esbuild = await import("esbuild").catch((cause: unknown) => {
    throw unavailable(["esbuild"], cause)
  })
  return { esbuild, Worker: threads.Worker }
}

/**
 * esbuild and the `Worker` class, once every rendering package resolves from the emulator's
 * location (a failure is retried on the next rendering).
 */
const loadMachinery: Effect.Effect<Machinery, RenderingUnavailable> = Effect.tryPromise({
  try: () => (machinery ??= loadOnce()),
  catch: (cause) => {
    machinery = undefined
    return cause instanceof RenderingUnavailable ? cause : noWorkerThreads(cause)
  }
})

const isRendered = (data: unknown): data is RenderedEmail => {
  if (typeof data !== "object" || data === null) return false
  const fields = data as Record<string, unknown>
  const optionalString = (value: unknown) => value === undefined || typeof value === "string"
  return typeof fields.html === "string" && typeof fields.text === "string" && optionalString(fields.subject) &&
    optionalString(fields.notificationCategory)
}

/**
 * Renders a template with a theme: the e-mail, or a {@link RenderFailure} with the `error` of the
 * service's EMAIL_RENDERING_ERROR (esbuild's build error, the thrown error as JSON, the emulator's
 * text for a rendering beyond its time or memory bound), or {@link RenderingUnavailable} when the
 * rendering packages are not installed.
 */
export const renderEmailWithTemplate = (
  templateSource: string,
  themeSource: string,
  options: RenderOptions = {}
): Effect.Effect<RenderedEmail, RenderFailure | RenderingUnavailable> =>
  Effect.gen(function* () {
    const { esbuild, Worker } = yield* loadMachinery
    const previewMode = options.previewMode ?? false
    const files = renderFiles(templateSource, themeSource, {
      user: options.user ?? (previewMode ? { displayName: "John Doe" } : { displayName: null }),
      project: options.project ?? (previewMode ? { displayName: "My Project" } : { displayName: "" }),
      variables: options.variables ?? {},
      themeProps: options.themeProps ?? {},
      previewMode
    })
    const built = yield* Effect.promise(() => bundle(esbuild, files))
    if ("error" in built) return yield* Effect.fail(new RenderFailure({ kind: "build", errorText: built.error }))
    const limits = options.limits ?? defaultRenderLimits
    const outcome = yield* Effect.promise(() => runInWorker(Worker, packageBase, runtimeImports, built.code, limits))
    switch (outcome._tag) {
      case "Timeout":
        return yield* Effect.fail(limitFailure(`Rendering took longer than ${limits.timeoutMillis} ms and was stopped`))
      case "OutOfMemory":
        return yield* Effect.fail(limitFailure(`Rendering used more than ${limits.maxMemoryMb} MB of memory and was stopped`))
      case "LoadFailed":
        return yield* Effect.fail(unavailable(renderingPackages, new Error(outcome.message)))
      case "Crashed":
        return yield* Effect.fail(runtimeFailure(outcome.message))
      case "Done": {
        const result = outcome.result
        if (result.status === "error") return yield* Effect.fail(runtimeFailure(result.error.message))
        if (!isRendered(result.data)) return yield* Effect.fail(runtimeFailure("The rendering gave no e-mail"))
        return result.data
      }
    }
  })
