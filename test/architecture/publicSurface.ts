/**
 * The counter of the package's public surface behind `publicSurface.test.ts` (issue 13 item 4):
 * the names an app reaches from the root entry `src/index.ts`, with each `export * as Ns` namespace
 * expanded into its members (`Password.signIn`, `Password.SignInError`…).
 *
 * One counting method, kept: the TypeScript checker's `getExportsOfModule` over `src/index.ts`
 * (the same names the built `.d.ts` declares). A name counts as *runtime* when it has a value
 * meaning (a function, a constant, a class), as *type-only* otherwise (an interface, a type alias).
 * A name that is both (`const X` and `type X`) counts once, as runtime.
 */
import { fileURLToPath } from "node:url"
import ts from "typescript"

/** The project root (the folder of `package.json`). */
export const projectRoot = fileURLToPath(new URL("../..", import.meta.url))

/** One public name: `Ns.member` for a namespace's member, the bare name for a root export. */
export interface PublicName {
  readonly name: string
  readonly runtime: boolean
}

/** The surface's figures. */
export interface Surface {
  /** Names exported by `src/index.ts` itself (a namespace counts once). */
  readonly root: number
  /** Every public name, namespaces expanded. */
  readonly names: ReadonlyArray<PublicName>
  readonly runtime: number
  readonly typeOnly: number
}

/** Counts the public names reachable from `src/index.ts`. */
export const measure = (): Surface => {
  const entry = `${projectRoot}src/index.ts`
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    types: ["node"]
  })
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(entry)
  if (source === undefined) throw new Error(`cannot read ${entry}`)
  const moduleSymbol = checker.getSymbolAtLocation(source)
  if (moduleSymbol === undefined) throw new Error(`${entry} is not a module`)
  const resolve = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(symbol) : symbol
  const isRuntime = (symbol: ts.Symbol): boolean => (resolve(symbol).flags & ts.SymbolFlags.Value) !== 0
  const names: Array<PublicName> = []
  const rootExports = checker.getExportsOfModule(moduleSymbol)
  for (const exported of rootExports) {
    const target = resolve(exported)
    const isNamespace = (target.flags & ts.SymbolFlags.ValueModule) !== 0 && target.valueDeclaration !== undefined &&
      ts.isSourceFile(target.valueDeclaration)
    if (isNamespace) {
      for (const member of checker.getExportsOfModule(target)) {
        names.push({ name: `${exported.name}.${member.name}`, runtime: isRuntime(member) })
      }
    } else {
      names.push({ name: exported.name, runtime: isRuntime(exported) })
    }
  }
  const runtime = names.filter((name) => name.runtime).length
  return { root: rootExports.length, names, runtime, typeOnly: names.length - runtime }
}
