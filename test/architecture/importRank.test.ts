/**
 * Dependencies point one way (docs/ARCHITECTURE.md): core < session < cache < domains < urls <
 * react / next / emulator / server < entry < examples, no import cycles, and none of the arrows the
 * page forbids beside the ranks. The checker reads both tables from the page; it is tested on the
 * cycles, back-imports and forbidden arrows the codebase once had, then run on the source tree.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import vitestConfig from "../../vitest.config.js"
import {
  architecture,
  ArchitectureDocError,
  arrowsHeader,
  check,
  type Entry,
  importsOf,
  packageNamesOf,
  parseArchitecture,
  partOf,
  parts,
  projectRoot,
  publicModules,
  ranksHeader,
  readEntries,
  readSources,
  reexportsOf,
  runtimeImportsOf,
  type SourceFile,
  sourceFolders
} from "./importRank.js"

const file = (path: string, ...targets: ReadonlyArray<string>): SourceFile => ({
  path,
  imports: targets.map((target, index) => ({ target, line: index + 1 }))
})

describe("the import-rank checker", () => {
  it("reads static, type-only, re-export, side-effect and dynamic imports, resolving .js to .ts", () => {
    const text = [
      "import * as Effect from \"effect/Effect\"",
      "import type { Session } from \"../session/Session.js\"",
      "import {",
      "  a,",
      "  b",
      "} from \"./internal/call.js\"",
      "export { c } from \"./Wire.js\"",
      "export * as D from \"./D.js\"",
      "import \"./polyfill.js\"",
      "const lazy = () => import(\"../emulator/Passkeys.js\")"
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
    expect(partOf("src/server/RequestAuth.ts")?.name).toBe("server")
    expect(partOf("examples/react-app/src/App.tsx")?.name).toBe("examples")
  })

  it("reads re-exports and the package's own names apart from the other imports", () => {
    const text = [
      "import * as Effect from \"effect/Effect\"",
      "import { Stack } from \"stack-auth-effect\"",
      "export * as Session from \"./session/Session.js\"",
      "export type { ClientServices } from \"./cache/ClientServices.js\"",
      "import { call } from \"./core/internal/call.js\"",
      "const lazy = () => import(\"stack-auth-effect/react\")"
    ].join("\n")
    expect(reexportsOf("src/index.ts", text)).toEqual(["src/session/Session.ts", "src/cache/ClientServices.ts"])
    // what runs: everything but `import type` / `export type`
    expect(runtimeImportsOf("src/index.ts", text)).toEqual(["src/session/Session.ts", "src/core/internal/call.ts"])
    expect(packageNamesOf(text)).toEqual([
      { specifier: "stack-auth-effect", line: 2 },
      { specifier: "stack-auth-effect/react", line: 6 }
    ])
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
        file("src/emulator/Router.ts", "src/core/Endpoint.ts", "src/users/internal/users.ts"),
        file("src/users/internal/users.ts", "src/core/Endpoint.ts"),
        file("src/users/Users.ts", "src/cache/QueryCache.ts", "src/core/Endpoint.ts", "src/users/internal/users.ts"),
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

  it("reads the real source tree, the examples included", () => {
    const files = readSources(projectRoot)
    expect(files.length).toBeGreaterThan(100)
    expect(files.some((source) => source.path === "src/core/Endpoint.ts")).toBe(true)
    expect(files.some((source) => source.path === "src/server/RequestAuth.ts")).toBe(true)
    expect(files.some((source) => source.path === "examples/react-app/src/App.tsx")).toBe(true)
  })
})

describe("the forbidden arrows", () => {
  /** The package's entry points in these synthetic trees: the root entry and next's. */
  const entries: ReadonlyArray<Entry> = [
    { name: "stack-auth-effect", source: "src/index.ts" },
    { name: "stack-auth-effect/next", source: "src/next/index.ts" }
  ]
  const checked = (...files: ReadonlyArray<SourceFile>) => check(files, { entries })

  it("names the emulator importing the session (routes/tokens.ts -> session/RefreshGrant.ts, as once) or the cache", () => {
    expect(
      checked(
        file("src/emulator/routes/tokens.ts", "src/session/RefreshGrant.ts"),
        file("src/emulator/routes/oauth.ts", "src/session/RefreshGrant.ts"),
        file("src/emulator/Store.ts", "src/cache/QueryCache.ts"),
        file("src/session/RefreshGrant.ts", "src/core/Wire.ts"),
        file("src/cache/QueryCache.ts"),
        file("src/core/Wire.ts")
      )
    ).toEqual([
      "src/emulator/routes/tokens.ts:1 imports src/session/RefreshGrant.ts: emulator may not import session",
      "src/emulator/routes/oauth.ts:1 imports src/session/RefreshGrant.ts: emulator may not import session",
      "src/emulator/Store.ts:1 imports src/cache/QueryCache.ts: emulator may not import cache"
    ])
  })

  it("names the emulator reaching the session at run time through a domain module (routes/cli.ts -> auth/Cli.ts -> session, as once), not through a type", () => {
    const violations = checked(
      { path: "src/emulator/routes/cli.ts", imports: [{ target: "src/auth/Cli.ts", line: 18 }], runtime: ["src/auth/Cli.ts"] },
      { path: "src/emulator/SessionTokens.ts", imports: [{ target: "src/auth/Tokens.ts", line: 8 }], runtime: [] },
      {
        path: "src/emulator/routes/teams.ts",
        imports: [{ target: "src/teams/internal/serverTeams.ts", line: 12 }],
        runtime: ["src/teams/internal/serverTeams.ts"]
      },
      { path: "src/emulator/routes/users.ts", imports: [{ target: "src/users/User.ts", line: 7 }], runtime: ["src/users/User.ts"] },
      { path: "src/auth/Cli.ts", imports: [{ target: "src/session/Session.ts", line: 1 }], runtime: ["src/session/Session.ts"] },
      { path: "src/auth/Tokens.ts", imports: [{ target: "src/session/Session.ts", line: 1 }], runtime: ["src/session/Session.ts"] },
      file("src/teams/internal/serverTeams.ts", "src/teams/TeamMemberProfiles.ts"),
      file("src/teams/TeamMemberProfiles.ts", "src/cache/QueryCache.ts"),
      file("src/cache/QueryCache.ts", "src/session/listeners.ts"),
      file("src/session/Session.ts"),
      file("src/session/listeners.ts"),
      file("src/users/User.ts", "src/core/Wire.ts"),
      file("src/core/Wire.ts")
    )
    expect(violations).toEqual([
      "src/emulator/routes/cli.ts:18 imports src/auth/Cli.ts: emulator may not reach session, even through other modules (src/auth/Cli.ts -> src/session/Session.ts)",
      "src/emulator/routes/teams.ts:12 imports src/teams/internal/serverTeams.ts: emulator may not reach session, even through other modules (src/teams/internal/serverTeams.ts -> src/teams/TeamMemberProfiles.ts -> src/cache/QueryCache.ts -> src/session/listeners.ts)"
    ])
  })

  it("names an import of another part's internal/ (cache -> session/internal, teams -> auth/internal, as once), not one of the part's own", () => {
    const violations = checked(
      file("src/cache/QueryCache.ts", "src/session/internal/listeners.ts"),
      file("src/teams/internal/teamInvitations.ts", "src/auth/internal/passwordReset.ts"),
      file("src/auth/OAuth.ts", "src/core/internal/call.ts", "src/auth/internal/oauth.ts"),
      file("react/hooks.ts", "react/internal/hooks.ts"),
      file("src/session/internal/listeners.ts"),
      file("src/auth/internal/passwordReset.ts"),
      file("src/auth/internal/oauth.ts"),
      file("src/core/internal/call.ts"),
      file("react/internal/hooks.ts")
    )
    expect(violations).toEqual([
      "src/cache/QueryCache.ts:1 imports src/session/internal/listeners.ts: no part imports another part's internal/ (src/session)",
      "src/teams/internal/teamInvitations.ts:1 imports src/auth/internal/passwordReset.ts: no part imports another part's internal/ (src/auth)",
      "src/auth/OAuth.ts:1 imports src/core/internal/call.ts: no part imports another part's internal/ (src/core)"
    ])
  })

  it("lets the emulator serve a domain's descriptors from its internal/, but not use core's internal/ (Router -> core/internal/call.ts, as once)", () => {
    expect(
      checked(
        file("src/emulator/routes/teams.ts", "src/teams/internal/teams.ts"),
        file("src/emulator/Router.ts", "src/core/internal/call.ts"),
        file("src/teams/internal/teams.ts"),
        file("src/core/internal/call.ts")
      )
    ).toEqual(["src/emulator/Router.ts:1 imports src/core/internal/call.ts: no part imports another part's internal/ (src/core)"])
  })

  it("names a binding importing a module no entry point exports, and accepts what an entry re-exports, down the chain", () => {
    const violations = checked(
      { path: "src/index.ts", imports: [], reexports: ["src/session/Session.ts", "src/core/Endpoint.ts"] },
      { path: "src/next/index.ts", imports: [], reexports: ["src/session/cookies.ts"] },
      { path: "src/session/Session.ts", imports: [], reexports: ["src/core/Session.ts"] },
      file("react/internal/TokenObserver.ts", "src/core/Session.ts", "src/session/Session.ts", "src/core/Wire.ts"),
      file("src/server/RequestAuth.ts", "src/session/cookies.ts", "src/core/Endpoint.ts", "src/session/RefreshGrant.ts"),
      file("src/next/RequestSession.ts", "src/session/internal/session.ts"),
      file("src/core/Session.ts"),
      file("src/core/Endpoint.ts"),
      file("src/core/Wire.ts"),
      file("src/session/cookies.ts"),
      file("src/session/RefreshGrant.ts"),
      file("src/session/internal/session.ts")
    )
    expect(violations).toEqual([
      "react/internal/TokenObserver.ts:3 imports src/core/Wire.ts: react imports only the package's public modules, and no entry point exports src/core/Wire.ts",
      "src/server/RequestAuth.ts:3 imports src/session/RefreshGrant.ts: server imports only the package's public modules, and no entry point exports src/session/RefreshGrant.ts",
      "src/next/RequestSession.ts:1 imports src/session/internal/session.ts: no part imports another part's internal/ (src/session)"
    ])
  })

  it("computes the public modules from the entry points through every re-export", () => {
    const modules = publicModules(
      [
        { path: "src/index.ts", imports: [], reexports: ["src/Stack.ts"] },
        { path: "src/Stack.ts", imports: [{ target: "src/core/Wire.ts", line: 1 }], reexports: ["src/cache/ClientServices.ts"] },
        file("src/cache/ClientServices.ts"),
        file("src/core/Wire.ts")
      ],
      entries
    )
    expect([...modules].sort()).toEqual(["src/Stack.ts", "src/cache/ClientServices.ts", "src/index.ts", "src/next/index.ts"])
  })

  it("names an example importing the sources by a relative path or a name the package does not export", () => {
    const violations = checked(
      file("examples/demo.ts", "src/index.ts", "examples/support.ts"),
      {
        path: "examples/react-app/src/App.tsx",
        imports: [],
        names: [{ specifier: "stack-auth-effect", line: 1 }, { specifier: "stack-auth-effect/internal/call", line: 2 }]
      },
      file("examples/support.ts"),
      file("src/index.ts")
    )
    expect(violations).toEqual([
      "examples/demo.ts:1 imports src/index.ts: examples may import the package only by its name (stack-auth-effect, stack-auth-effect/…), not by a relative path",
      "examples/react-app/src/App.tsx:2 imports stack-auth-effect/internal/call: not an entry point of package.json \"exports\""
    ])
  })

  it("reads the package's entry points from package.json exports, as sources", () => {
    const read = readEntries(projectRoot)
    expect(read).toContainEqual({ name: "stack-auth-effect", source: "src/index.ts" })
    expect(read).toContainEqual({ name: "stack-auth-effect/react", source: "react/index.ts" })
    expect(read).toContainEqual({ name: "stack-auth-effect/emulator/server", source: "src/emulator/server.ts" })
    expect(read.some((entry) => entry.name.includes("internal"))).toBe(false)
  })
})

describe("reading docs/ARCHITECTURE.md", () => {
  const ranks = [
    ranksHeader + " What |",
    "|---|---|---|---|",
    "| 0 | core | `src/core/` | settings |",
    "| 1 | session | `src/session/` | tokens |",
    "| 2 | react · emulator | `react/` · `src/emulator/` | the top |"
  ]
  const arrows = [arrowsHeader, "|---|---|---|---|", "| emulator | `session` | — | a double of the service |"]
  const doc = (...lines: ReadonlyArray<string>) => lines.join("\n")
  const problems = (text: string): ReadonlyArray<string> => {
    try {
      parseArchitecture(text)
      return []
    } catch (error) {
      if (error instanceof ArchitectureDocError) return error.problems
      throw error
    }
  }

  it("reads the ranks, a row of parts side by side, and the arrows", () => {
    expect(parseArchitecture(doc(...ranks, "", "Prose.", "", ...arrows))).toEqual({
      parts: [
        { name: "core", rank: 0, folders: ["src/core"] },
        { name: "session", rank: 1, folders: ["src/session"] },
        { name: "react", rank: 2, folders: ["react"] },
        { name: "emulator", rank: 2, folders: ["src/emulator"] }
      ],
      rules: [{ kind: "part", from: ["emulator"], to: "session", row: arrows[2] }]
    })
  })

  it("fails on a rank row it cannot read", () => {
    expect(problems(doc(...ranks, "| two | urls | `src/urls/` | redirects |", "", ...arrows))[0]).toContain("the rank is not a number")
    expect(problems(doc(...ranks, "| 3 | next · server | `src/next/` | helpers |", "", ...arrows))[0]).toContain("2 parts but 1 folder groups")
    expect(problems(doc(...ranks, "| 3 | urls | src/urls/ | redirects |", "", ...arrows))[0]).toContain("a part without folders in backticks")
  })

  it("fails on an arrow it cannot read: an unknown part, an unknown target, a bad exception, a missing table", () => {
    expect(problems(doc(...ranks, "", ...arrows, "| emulater | `session` | — | typo |"))[0]).toContain("\"emulater\" not a part of the ranks table")
    expect(problems(doc(...ranks, "", ...arrows, "| react | anything internal | — | vague |"))[0]).toContain("is neither a part in backticks nor one of")
    expect(problems(doc(...ranks, "", ...arrows, "| every part | another part's `internal/` | emulator -> core | arrow |"))[0]).toContain(
      "the exception \"emulator -> core\" is not \"part → part\""
    )
    expect(problems(doc(...ranks))).toEqual([`no forbidden-arrows table (a table headed "${arrowsHeader}")`])
  })

  it("reads the project's page: the eight ranks, the emulator kept off the session and cache (directly and at run time), internal/ kept inside, public modules for the bindings, names for the examples", () => {
    expect(parts.map((part) => `${part.rank} ${part.name}`)).toEqual([
      "0 core",
      "1 session",
      "2 cache",
      "3 domains",
      "4 urls",
      "5 react",
      "5 next",
      "5 emulator",
      "5 server",
      "6 entry",
      "7 examples"
    ])
    expect(
      architecture.rules.map((rule) =>
        rule.kind === "part" ? `${rule.from.join(",")} -/-> ${rule.to}` : rule.kind === "reach" ? `${rule.from.join(",")} -/->> ${rule.to}` : rule.kind
      )
    ).toEqual([
      "emulator -/-> session",
      "emulator -/-> cache",
      "emulator -/->> session",
      "emulator -/->> cache",
      "internal",
      "public",
      "byName"
    ])
  })
})

describe("the source tree", () => {
  it("the source tree follows the import ranks and the forbidden arrows, and has no cycles", () => {
    expect(check(readSources(projectRoot))).toEqual([])
  })

  it("the emulator parses cookies with effect's Cookies (effect/http), not the SDK's session/cookies.ts", () => {
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
    expect(definitions(/Schema\.Literals?\(\s*\[?\s*"true",\s*"false"\s*\]?\s*\)/)).toEqual(["src/core/Wire.ts"])
    expect(definitions(/Schema\.Struct\(\s*\{\s*code:\s*VerificationCode\s*\}\s*\)/)).toEqual(["src/core/Wire.ts"])
    expect(definitions(/value !== "undefined" && value !== "null"/)).toEqual(["src/core/Wire.ts"])
  })
})

describe("docs/ARCHITECTURE.md", () => {
  const text = readFileSync(join(projectRoot, "docs/ARCHITECTURE.md"), "utf8")

  it("names folders that exist, and every folder and file at the top of src/ belongs to a part", () => {
    const folders = parts.flatMap((part) => part.folders)
    expect(folders.filter((folder) => !existsSync(join(projectRoot, folder)))).toEqual([])
    const unranked = readdirSync(join(projectRoot, "src")).map((name) => `src/${name}`).filter((path) => partOf(path) === undefined)
    expect(unranked).toEqual([])
    // the checker reads every part's files
    expect(folders.filter((folder) => !sourceFolders.includes(folder.split("/")[0]!))).toEqual([])
  })

  it("maps each entry point of package.json to its source for tsc (tsconfig.json paths) and vitest (aliases)", () => {
    const tsconfig = JSON.parse(readFileSync(join(projectRoot, "tsconfig.json"), "utf8")) as {
      readonly compilerOptions: { readonly paths: Record<string, ReadonlyArray<string>> }
    }
    const aliases = (vitestConfig.resolve?.alias ?? []) as ReadonlyArray<{ readonly find: RegExp; readonly replacement: string }>
    const entries = readEntries(projectRoot)
    expect(entries.length).toBeGreaterThanOrEqual(7)
    for (const entry of entries) {
      expect(existsSync(join(projectRoot, entry.source)), entry.source).toBe(true)
      expect(tsconfig.compilerOptions.paths[entry.name], entry.name).toEqual([`./${entry.source}`])
      const alias = aliases.find((candidate) => candidate.find.test(entry.name))
      expect(alias?.replacement, entry.name).toBe(join(projectRoot, entry.source))
    }
    expect(Object.keys(tsconfig.compilerOptions.paths).sort()).toEqual(entries.map((entry) => entry.name).sort())
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
