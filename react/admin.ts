"use client"
/**
 * Hooks over admin access (the official `StackAdminApp`'s `project.useConfig()`,
 * `useProductionModeErrors()` and the admin view of the project), for apps whose runtime holds
 * admin access: a dashboard, an internal admin tool (a runtime of `Stack.layerAdmin`, with the
 * admin key or an owner's admin access token). `makeStackHooks(runtime)` returns them only when the
 * runtime provides `AdminAccess`; a client or server app does not compile them.
 *
 * Each reads through the SDK's query cache: `ProjectConfig.update`, `AdminProjects.updateCurrent`
 * and the other project writes refresh them.
 *
 * @module
 */
import type { AdminAccess } from "../src/core/Access.js"
import type { ClientServices } from "../src/cache/ClientServices.js"
import * as AdminProjects from "../src/projects/AdminProjects.js"
import * as ProjectConfig from "../src/projects/ProjectConfig.js"
import type { QueryHooks } from "./domain.js"

/** The services the admin hooks need: a Stack layer's, plus `AdminAccess`. */
export type AdminServices = ClientServices | AdminAccess

/** The admin hooks, made of `hooks` typed by a runtime with admin access. */
export const makeAdminHooks = (hooks: QueryHooks<AdminServices>) => {
  const { useStackQuery: query, useStackSuspenseQuery: suspenseQuery } = hooks
  return {
    /** The current project, admin view (`AdminProjects.getCurrent`: `GET /internal/projects/current`). Official: admin `useProject()`. */
    useAdminProject: () => query(AdminProjects.getCurrent(), []),
    /** {@link useAdminProject} for Suspense. */
    useSuspenseAdminProject: () => suspenseQuery(AdminProjects.getCurrent(), []),
    /** The production-mode problems of the project (`AdminProjects.getProductionModeErrors`). Official: `project.useProductionModeErrors()`. */
    useProductionModeErrors: () => query(AdminProjects.getProductionModeErrors(), []),
    /** {@link useProductionModeErrors} for Suspense. */
    useSuspenseProductionModeErrors: () => suspenseQuery(AdminProjects.getProductionModeErrors(), []),
    /** The rendered project config (`ProjectConfig.get`: `GET /internal/config`). Official: `project.useConfig()`. */
    useConfig: () => query(ProjectConfig.get(), []),
    /** {@link useConfig} for Suspense. */
    useSuspenseConfig: () => suspenseQuery(ProjectConfig.get(), []),
    /** The override written at a level (`ProjectConfig.getOverride`). */
    useConfigOverride: (level: ProjectConfig.ConfigLevel) => query(ProjectConfig.getOverride(level), [level]),
    /** {@link useConfigOverride} for Suspense. */
    useSuspenseConfigOverride: (level: ProjectConfig.ConfigLevel) => suspenseQuery(ProjectConfig.getOverride(level), [level])
  }
}

/** The hooks {@link makeAdminHooks} makes (from `makeStackHooks(runtime)` with admin access). */
export type AdminHooks = ReturnType<typeof makeAdminHooks>
