/**
 * What the bench's children share about the project they call: its settings (read from a child's
 * config file), the headers this SDK sends with server access (raw `fetch` and the Effect floor
 * send the same), and this SDK's server runtime over them.
 */
import { ManagedRuntime } from "effect"
import * as Stack from "../../src/Stack.js"

/** The project part of a child's config file. */
export interface ProjectConfig {
  readonly baseUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly secretServerKey: string
  /** The official SDK's module URL (it lives in `bench/node_modules`). */
  readonly officialModule: string | null
}

/** The headers this SDK sends with server access, with the request's nonce. */
export const serverHeaders = (config: ProjectConfig, nonce: string): Record<string, string> => ({
  "x-stack-project-id": config.projectId,
  "x-stack-access-type": "server",
  "x-stack-client-version": "bench",
  "x-stack-allow-anonymous-user": "true",
  "x-stack-random-nonce": nonce,
  "x-stack-override-error-status": "true",
  "x-stack-publishable-client-key": config.publishableClientKey,
  "x-stack-secret-server-key": config.secretServerKey
})

/** This SDK's server access to the project, as a runtime. */
export const ourServerRuntime = (config: ProjectConfig) =>
  ManagedRuntime.make(
    Stack.layerServer({
      projectId: config.projectId,
      publishableClientKey: config.publishableClientKey,
      secretServerKey: config.secretServerKey,
      baseUrl: config.baseUrl
    })
  )

/**
 * The official SDK's `StackServerApp` over the project (memory token store, no prefetch), typed as
 * the part `App` a child uses; fails when the bench's dependencies are not installed.
 */
export const officialServerApp = async <App>(config: ProjectConfig): Promise<App> => {
  if (config.officialModule === null) throw new Error("the official SDK is not installed (npm --prefix bench install)")
  const { StackServerApp } = (await import(config.officialModule)) as { StackServerApp: new(options: Record<string, unknown>) => App }
  return new StackServerApp({
    projectId: config.projectId,
    publishableClientKey: config.publishableClientKey,
    secretServerKey: config.secretServerKey,
    baseUrl: config.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true
  })
}
