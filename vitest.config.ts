import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * Files that change globals (a fake `document`, `vi.mock`, a DOM environment, a real browser) run
 * isolated, one module graph each (threads pool); every other file shares its worker's module
 * graph (forks pool with `isolate: false`, set on its project), which saves loading the SDK and the
 * emulator again for each file (most of the suite's time: 201 s -> 108 s for vitest on an idle
 * 2-core machine).
 */
const isolatedFiles = [
  "test/browser/**",
  "test/react/**",
  "test/package/browserSessionDefault.test.ts",
  "test/session/BrowserCookieStore.test.ts",
  "test/session/TokenStore.contract.test.ts",
  "test/reliability/cookieTossing*.test.ts",
  "test/auth/passkeys.test.ts",
  "test/emulator/optionalWebAuthnServer.test.ts",
  // loads the official @stackframe/js, which changes globals other files see
  "test/emulator/officialSdk.test.ts",
  "test/e2e/authorizationHeader.test.ts"
]

const shared = {
  esbuild: { jsx: "automatic" as const },
  resolve: {
    // the package's public entry points, by name, as an app imports them (see package.json "exports")
    alias: [
      { find: /^stack-auth-effect$/, replacement: here("./src/index.ts") },
      { find: /^stack-auth-effect\/react$/, replacement: here("./react/index.ts") },
      { find: /^stack-auth-effect\/next$/, replacement: here("./src/next/index.ts") },
      { find: /^stack-auth-effect\/server$/, replacement: here("./src/server/index.ts") },
      { find: /^stack-auth-effect\/emulator$/, replacement: here("./src/emulator/index.ts") },
      { find: /^stack-auth-effect\/emulator\/server$/, replacement: here("./src/emulator/server.ts") },
      { find: /^stack-auth-effect\/emulator\/msw$/, replacement: here("./src/emulator/MswHandlers.ts") }
    ]
  }
}

/**
 * Generous limits: a test or hook that passes in a second when idle may take many times that on a
 * loaded machine (CI's 2 cores shared with other jobs), and only that; a limit a slow machine
 * trips is a false failure. (The browser files set longer ones for their steps.)
 */
const timeouts = { testTimeout: 60_000, hookTimeout: 120_000 }

export default defineConfig({
  ...shared,
  test: {
    ...timeouts,
    typecheck: { enabled: false },
    // both cores: most files wait on in-process or loopback I/O as much as on the CPU
    maxWorkers: 2,
    projects: [
      {
        ...shared,
        test: {
          ...timeouts,
          name: "shared",
          pool: "forks",
          include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
          exclude: [...isolatedFiles, "**/node_modules/**"],
          isolate: false
        }
      },
      {
        ...shared,
        test: {
          ...timeouts,
          name: "isolated",
          pool: "threads",
          isolate: true,
          include: isolatedFiles.map((glob) => (glob.endsWith("**") ? `${glob}/*.test.{ts,tsx}` : glob))
        }
      }
    ]
  }
})
