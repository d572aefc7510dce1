// @vitest-environment happy-dom
/**
 * The admin hooks from `makeStackHooks` over a runtime with admin access (the official
 * `project.useConfig()`, `useProductionModeErrors()` and admin `useProject()`): they read through
 * the query cache, and a `ProjectConfig.update` made through the same runtime refreshes them.
 * Against the in-process emulator.
 */
import { act, configure, render, screen, waitFor } from "@testing-library/react"
import { Effect, ManagedRuntime } from "effect"
import { Suspense, version as reactVersion } from "react"
import { describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"
import * as ProjectConfig from "../../src/projects/ProjectConfig.js"
import * as Stack from "../../src/Stack.js"
import { makeStackHooks, StackProvider } from "../../react/index.js"

// a loaded machine (2 shared cores) can take more than the default 1 s to settle a query
configure({ asyncUtilTimeout: 10_000 })

const text = (id: string) => screen.getByTestId(id).textContent

describe(`React ${reactVersion}: admin hooks from makeStackHooks over a runtime with admin access`, () => {
  it("useConfig, useAdminProject, useProductionModeErrors and their Suspense twins follow a config update", async () => {
    const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
    const runtime = ManagedRuntime.make(
      Stack.layerAdmin({
        projectId: emulator.demo.projectId,
        superSecretAdminKey: emulator.demo.superSecretAdminKey,
        httpClient: Emulator.layerHttpClient(emulator)
      })
    )
    try {
      const hooks = makeStackHooks(runtime)
      const View = () => {
        const config = hooks.useConfig()
        const project = hooks.useAdminProject()
        const problems = hooks.useProductionModeErrors()
        const branch = hooks.useConfigOverride("branch")
        if ([config, project, problems, branch].some((result) => result.status !== "success")) return <span data-testid="admin">loading</span>
        return (
          <span data-testid="admin">
            {[
              `signUp:${String(config.status === "success" && config.data.auth?.allowSignUp)}`,
              `project:${String(project.status === "success" && project.data.config.signUpEnabled)}`,
              `problems:${problems.status === "success" ? problems.data.length : "?"}`,
              `branch:${branch.status === "success" ? Object.keys(branch.data).length : "?"}`
            ].join("|")}
          </span>
        )
      }
      const SuspenseView = () => {
        const config = hooks.useSuspenseConfig()
        const project = hooks.useSuspenseAdminProject()
        const problems = hooks.useSuspenseProductionModeErrors()
        const environment = hooks.useSuspenseConfigOverride("environment")
        return (
          <span data-testid="suspense">
            {`${String(config.auth?.allowSignUp)}|${project.displayName}|${problems.length}|${String(environment["auth.allowSignUp"])}`}
          </span>
        )
      }
      render(
        <StackProvider runtime={runtime}>
          <View />
          <Suspense fallback={<span data-testid="suspense">loading</span>}>
            <SuspenseView />
          </Suspense>
        </StackProvider>
      )
      await waitFor(() => expect(text("admin")).toBe("signUp:true|project:true|problems:1|branch:0"))
      await waitFor(() => expect(text("suspense")).toBe("true|Demo Project|1|true"))
      await act(() => runtime.runPromise(ProjectConfig.update({ "auth.allowSignUp": false, "domains.allowLocalhost": false })))
      await waitFor(() => expect(text("admin")).toBe("signUp:false|project:false|problems:0|branch:0"))
      await waitFor(() => expect(text("suspense")).toBe("false|Demo Project|0|false"))
    } finally {
      await runtime.dispose()
    }
  })
})
