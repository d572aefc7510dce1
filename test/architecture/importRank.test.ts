/**
 * Dependencies point one way (docs/ARCHITECTURE.md): core < session < cache < domains < urls <
 * react / next / emulator, and no import cycles. The checker is tested on the cycles and
 * back-imports the codebase once had, then run on the source tree.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { check, importsOf, partOf, parts, projectRoot, readSources, type SourceFile } from "./importRank.js"

const file = (path: string, ...targets: ReadonlyArray<string>): SourceFile => ({
  path,
  imports: targets.map((target, index) => ({ target, line: index + 1 }))
})

describe("the import-rank checker", () => {
  it("reads static, type-only, re-export, side-effect and dynamic imports, resolving .js to .ts", () => {
    const text = [
      'import * as Effect from "effect/Effect"',
      'import type { Session } from "../session/Session.js"',
      'import {',
      '  a,',
      '  b',
      '} from "./internal/call.js"',
      'export { c } from "./Wire.js"',
      'export * as D from "./D.js"',
      'import "./polyfill.js"',
      'const lazy = () => import("../emulator/Passkeys.js")'
    ].join("\n")
    expect(importsOf("src/core/Endpoint.ts", text)).toEqual([
      { target: "src/session/Session.ts", line: 2 },
      { target: "src/core/internal/call.ts", line: 6 },
      { target: "src/core/Wire.ts", line: 7 },
      { target: "src/core/D.ts", line: 8 },
      { target: "src/core/polyfill.ts", line: 9 },
      { target: "src/emulator/Passkeys.ts", line: 10 }
    ])
  })

  it("places files in their parts", () => {
    expect(partOf("src/core/internal/transport.ts")?.name).toBe("core")
    expect(partOf("src/api-keys/UserApiKeys.ts")?.name).toBe("domains")
    expect(partOf("react/hooks.ts")?.name).toBe("react")
    expect(partOf("src/Stack.ts")?.name).toBe("entry")
  })

  it("names a core module importing the session (core/Endpoint.ts -> session/Session.ts, as once)", () => {
    const violations = check([file("src/core/Endpoint.ts", "src/session/Session.ts"), file("src/session/Session.ts")])
    expect(violations).toEqual([
      "src/core/Endpoint.ts:1 imports src/session/Session.ts: core (rank 0) may not import session (rank 1)"
    ])
  })

  it("names the session importing a domain (session/internal/session.ts -> auth/Tokens.ts, as once)", () => {
    const violations = check([file("src/session/internal/session.ts", "src/auth/Tokens.ts"), file("src/auth/Tokens.ts")])
    expect(violations[0]).toContain("session (rank 1) may not import domains (rank 3)")
  })

  it("names a domain importing urls, and urls importing a domain back, as a cycle", () => {
    const violations = check([
      file("src/auth/GetUser.ts", "src/urls/HandlerUrls.ts"),
      file("src/urls/HandlerUrls.ts"),
      file("src/urls/Redirects.ts", "src/auth/GetUser.ts"),
      file("src/auth/Password.ts", "src/urls/Redirects.ts")
    ])
    expect(violations).toContain("src/auth/GetUser.ts:1 imports src/urls/HandlerUrls.ts: domains (rank 3) may not import urls (rank 4)")
    expect(violations).toContain("src/auth/Password.ts:1 imports src/urls/Redirects.ts: domains (rank 3) may not import urls (rank 4)")
  })

  it("names a cycle inside one part (core/StackClient.ts <-> core/internal/transport.ts, as once)", () => {
    const violations = check([
      file("src/core/StackClient.ts", "src/core/internal/transport.ts"),
      file("src/core/internal/transport.ts", "src/core/StackClient.ts")
    ])
    expect(violations).toEqual(["import cycle: src/core/StackClient.ts -> src/core/internal/transport.ts"])
  })

  it("names a longer cycle across parts (Tokens -> Endpoint -> call -> Session -> session -> Tokens, as once)", () => {
    const violations = check([
      file("src/auth/Tokens.ts", "src/core/Endpoint.ts"),
      file("src/core/Endpoint.ts", "src/core/internal/call.ts"),
      file("src/core/internal/call.ts", "src/session/Session.ts"),
      file("src/session/Session.ts", "src/session/internal/session.ts"),
      file("src/session/internal/session.ts", "src/auth/Tokens.ts")
    ])
    expect(violations).toContain(
      "import cycle: src/auth/Tokens.ts -> src/core/Endpoint.ts -> src/core/internal/call.ts -> src/session/Session.ts -> src/session/internal/session.ts"
    )
  })

  it("keeps the top parts apart (the emulator may not import react or next, nor they it)", () => {
    const violations = check([file("src/emulator/routes/oauth.ts", "src/next/CookieTokenStore.ts"), file("src/next/CookieTokenStore.ts")])
    expect(violations[0]).toContain("emulator and next are separate parts")
  })

  it("accepts imports downwards and within a part", () => {
    expect(
      check([
        file("src/emulator/Router.ts", "src/core/Endpoint.ts", "src/users/Users.ts"),
        file("src/users/Users.ts", "src/cache/QueryCache.ts", "src/core/Endpoint.ts"),
        file("src/cache/QueryCache.ts", "src/session/Session.ts"),
        file("src/session/Session.ts", "src/core/Session.ts"),
        file("src/core/Session.ts"),
        file("src/core/Endpoint.ts", "src/core/Session.ts")
      ])
    ).toEqual([])
  })

  it("names every back-import and cycle the tree had before the fix (core/Wire -> session/TokenStore, Endpoint <-> call, emulator State <-> AccessTokens, react)", () => {
    const violations = check([
      file("src/core/Wire.ts", "src/session/TokenStore.ts"),
      file("src/session/TokenStore.ts"),
      file("src/core/Endpoint.ts", "src/core/internal/call.ts"),
      file("src/core/internal/call.ts", "src/core/Endpoint.ts"),
      file("src/emulator/AccessTokens.ts", "src/emulator/State.ts"),
      file("src/emulator/State.ts", "src/emulator/AccessTokens.ts"),
      file("react/StackProvider.tsx", "react/internal/SuspenseRegistry.ts"),
      file("react/internal/SuspenseRegistry.ts", "react/internal/QueryObserver.ts"),
      file("react/internal/QueryObserver.ts", "react/StackProvider.tsx"),
      file("react/hooks.ts", "react/internal/hooks.ts"),
      file("react/internal/hooks.ts", "react/hooks.ts"),
      file("react/domain.ts", "src/Stack.ts"),
      file("src/Stack.ts"),
      file("src/auth/MagicLink.ts", "src/urls/HandlerUrls.ts"),
      file("src/urls/HandlerUrls.ts")
    ])
    expect(violations).toEqual([
      "src/core/Wire.ts:1 imports src/session/TokenStore.ts: core (rank 0) may not import session (rank 1)",
      "react/domain.ts:1 imports src/Stack.ts: react (rank 5) may not import entry (rank 6)",
      "src/auth/MagicLink.ts:1 imports src/urls/HandlerUrls.ts: domains (rank 3) may not import urls (rank 4)",
      "import cycle: src/core/Endpoint.ts -> src/core/internal/call.ts",
      "import cycle: src/emulator/AccessTokens.ts -> src/emulator/State.ts",
      "import cycle: react/StackProvider.tsx -> react/internal/QueryObserver.ts -> react/internal/SuspenseRegistry.ts",
      "import cycle: react/hooks.ts -> react/internal/hooks.ts"
    ])
  })

  it("reads the real source tree", () => {
    const files = readSources(projectRoot)
    expect(files.length).toBeGreaterThan(100)
    expect(files.some((source) => source.path === "src/core/Endpoint.ts")).toBe(true)
  })
})

describe("the source tree", () => {
  it("the source tree follows the import ranks and has no cycles", () => {
    expect(check(readSources(projectRoot))).toEqual([])
  })

  it("the emulator parses cookies with the platform's Cookies, not the SDK's session/cookies.ts", () => {
    const emulatorFiles = readSources(projectRoot).filter((source) => source.path.startsWith("src/emulator/"))
    expect(emulatorFiles.length).toBeGreaterThan(10)
    const offending = emulatorFiles.filter((source) => source.imports.some((entry) => entry.target === "src/session/cookies.ts"))
    expect(offending.map((source) => source.path)).toEqual([])
  })

  it("defines each shared wire helper once, in core/Wire.ts (isUsableToken, QueryBoolean, CodePayload)", () => {
    const texts: Array<{ path: string; text: string }> = []
    const walk = (folder: string) => {
      for (const entry of readdirSync(join(projectRoot, folder), { withFileTypes: true })) {
        const path = `${folder}/${entry.name}`
        if (entry.isDirectory()) walk(path)
        else if (/\.tsx?$/.test(entry.name)) texts.push({ path, text: readFileSync(join(projectRoot, path), "utf8") })
      }
    }
    walk("src")
    walk("react")
    const definitions = (pattern: RegExp) => texts.filter(({ text }) => pattern.test(text)).map(({ path }) => path)
    // the bodies of the three helpers, wherever they would be written again
    expect(definitions(/Schema\.Literal\(\s*"true",\s*"false"\s*\)/)).toEqual(["src/core/Wire.ts"])
    expect(definitions(/Schema\.Struct\(\s*\{\s*code:\s*VerificationCode\s*\}\s*\)/)).toEqual(["src/core/Wire.ts"])
    expect(definitions(/value !== "undefined" && value !== "null"/)).toEqual(["src/core/Wire.ts"])
  })
})

describe("docs/ARCHITECTURE.md", () => {
  const text = readFileSync(join(projectRoot, "docs/ARCHITECTURE.md"), "utf8")

  it("names every part of the checker with its rank and folders", () => {
    for (const part of parts) {
      const row = text.split("\n").find((line) => line.startsWith(`| ${part.rank} |`) && line.includes(part.name))
      expect(row, `${part.name} (rank ${part.rank})`).toBeDefined()
      for (const folder of part.folders) expect(row, folder).toContain(`\`${folder}`)
    }
  })

  it("names only files that exist", () => {
    const named = [...text.matchAll(/`((?:src|react|test)\/[\w./-]+\.tsx?)`|`((?:core|session|cache|emulator|react)\/[\w./-]+\.ts)`/g)].map(
      (match) => match[1] ?? match[2]!
    )
    expect(named.length).toBeGreaterThan(10)
    // a path from the project root, or (for short names such as `core/Session.ts`) below `src/`
    const missing = named.filter((path) => !existsSync(join(projectRoot, path)) && !existsSync(join(projectRoot, "src", path)))
    expect(missing).toEqual([])
  })
})
