/**
 * The set-up the DOM hook tests share: a fresh app (emulator + runtime, ./support.ts) before each
 * test; after it, the rendered trees unmounted and the app disposed.
 */
import { cleanup } from "@testing-library/react"
import { afterEach, beforeEach } from "vitest"
import { makeApp } from "./support.js"
import type { App } from "./support.js"

/** Registers the set-up; `use` receives each test's app (assign it to the file's `app`). */
export const useFreshApp = (use: (app: App) => void): void => {
  let current: App | undefined
  beforeEach(async () => {
    current = await makeApp()
    use(current)
  })
  afterEach(async () => {
    cleanup()
    await current?.dispose()
  })
}
