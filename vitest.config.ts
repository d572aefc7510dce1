import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  esbuild: { jsx: "automatic" },
  resolve: {
    // the package's public entry points, by name, as an app imports them (see package.json "exports")
    alias: [
      { find: /^stack-auth-effect$/, replacement: here("./src/index.ts") },
      { find: /^stack-auth-effect\/react$/, replacement: here("./react/index.ts") },
      { find: /^stack-auth-effect\/next$/, replacement: here("./src/next/index.ts") },
      { find: /^stack-auth-effect\/emulator$/, replacement: here("./src/emulator/index.ts") },
      { find: /^stack-auth-effect\/emulator\/server$/, replacement: here("./src/emulator/server.ts") },
      { find: /^stack-auth-effect\/emulator\/msw$/, replacement: here("./src/emulator/MswHandlers.ts") }
    ]
  },
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    typecheck: { enabled: false }
  }
})
