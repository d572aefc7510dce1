/**
 * The plain React hooks typed by the runtime an app declares once (`Register`, module
 * augmentation of `stack-auth-effect/react`, as TanStack Router's `Register`). The declaration is
 * global to a program, so each case is an app of its own: its files are written under
 * `test-output/` and type-checked in a program of their own, with tsconfig.json's options (the
 * package's entry points by name, through `paths`). The apps use `@ts-expect-error` for what must
 * not compile, so an app passes only when every refused line is refused and every other line
 * compiles; a control app shows the check reports an error at all.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { beforeAll, describe, expect, it } from "vitest"
import { root } from "../docs/examples.js"

const outDir = path.join(root, "test-output", "registered-runtime")

const imports = `import { ManagedRuntime } from "effect"
import { ContactChannels, ServerUsers, Stack } from "stack-auth-effect"
import {
  useInternalApiKeys,
  useMetrics,
  useMfaSignIn,
  useStackCallback,
  useStackMutation,
  useStackQuery,
  useStackSuspenseQuery,
  useSuspenseMetrics,
  useTeamPermissionDefinitions
} from "stack-auth-effect/react"
import type { RegisteredServices } from "stack-auth-effect/react"
`

const apps: Record<string, string> = {
  // a server runtime declared: server effects compile in every plain hook; admin hooks do not
  server: `${imports}
const runtime = ManagedRuntime.make(Stack.layerServer({ projectId: "p", publishableClientKey: "pck_x", secretServerKey: "ssk_x" }))

declare module "stack-auth-effect/react" {
  interface Register {
    runtime: typeof runtime
  }
}

export const App = () => {
  const services: RegisteredServices = null as unknown as Stack.ClientServices
  const users = useStackQuery(ServerUsers.list(), [])
  const count: number = users.status === "success" ? users.data.items.length : 0
  const page = useStackSuspenseQuery(ServerUsers.list({ limit: 1 }), [])
  const remove = useStackMutation((userId: string) => ServerUsers.delete(userId))
  const list = useStackCallback(() => ServerUsers.list())
  const signIn = useMfaSignIn(() => ServerUsers.list())
  const channels = useStackQuery(ContactChannels.list(), [])
  // @ts-expect-error a server runtime has no AdminAccess: the admin hooks are not callable
  useMetrics()
  // @ts-expect-error nor their Suspense forms
  useSuspenseMetrics()
  return [services, count, page, remove, list, signIn, channels]
}
`,
  // an admin runtime with the secret server key declared: the admin hooks compile too
  admin: `${imports}
const runtime = ManagedRuntime.make(
  Stack.layerAdmin({ projectId: "p", publishableClientKey: "pck_x", superSecretAdminKey: "sak_x", secretServerKey: "ssk_x" })
)

declare module "stack-auth-effect/react" {
  interface Register {
    runtime: typeof runtime
  }
}

export const App = () => {
  const users = useStackQuery(ServerUsers.list(), [])
  const metrics = useMetrics({ includeAnonymous: true })
  const keys = useInternalApiKeys()
  const definitions = useTeamPermissionDefinitions()
  const ids: ReadonlyArray<string> = definitions.status === "success" ? definitions.data.map((definition) => definition.id) : []
  return [users, metrics, keys, ids]
}
`,
  // nothing declared: client access only (as test/types/reactHooks.test.ts checks in the project's program)
  client: `${imports}
export const App = () => {
  // @ts-expect-error ServerUsers.list needs ServerAccess
  useStackQuery(ServerUsers.list(), [])
  // @ts-expect-error the admin hooks need a declared runtime with AdminAccess
  useInternalApiKeys()
  return useStackQuery(ContactChannels.list(), [])
}
`,
  // the control: a refused line without @ts-expect-error is reported
  control: `${imports}
export const App = () => useStackQuery(ServerUsers.list(), [])
`
}

const config = ts.getParsedCommandLineOfConfigFile(path.join(root, "tsconfig.json"), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"))
  }
})

/** The diagnostics of one app's file, compiled in a program of its own. */
const check = (name: string): Array<string> => {
  if (config === undefined) throw new Error("tsconfig.json could not be read")
  const file = path.join(outDir, name, "app.tsx")
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, apps[name]!)
  const program = ts.createProgram({ rootNames: [file], options: { ...config.options, noEmit: true, incremental: false, noUnusedLocals: false } })
  const source = program.getSourceFile(file)
  if (source === undefined) throw new Error(`${file} is not in its program`)
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) =>
    `${diagnostic.start === undefined ? "?" : source.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: ${
      ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
    }`
  )
}

describe("Register: the plain hooks typed by the app's declared runtime", () => {
  const found: Record<string, Array<string>> = {}
  beforeAll(() => {
    fs.rmSync(outDir, { recursive: true, force: true })
    for (const name of Object.keys(apps)) found[name] = check(name)
  }, 600_000)

  it("with a server runtime declared, server effects compile in every plain hook and admin hooks do not", () => {
    expect(found["server"]!.join("\n")).toBe("")
  })

  it("with an admin runtime declared, the admin hooks compile", () => {
    expect(found["admin"]!.join("\n")).toBe("")
  })

  it("with nothing declared, a server effect and an admin hook are refused", () => {
    expect(found["client"]!.join("\n")).toBe("")
  })

  it("the check reports a refused line (control)", () => {
    expect(found["control"]!.join("\n")).toMatch(/^16: .*ServerAccess/s)
    expect(found["control"]).toHaveLength(1)
  })
})
