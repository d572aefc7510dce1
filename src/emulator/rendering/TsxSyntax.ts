/**
 * The syntax tree of the TSX subset the emulator renders e-mail templates and themes from: the
 * module shapes the service's default templates and themes use (`import … from`, `export function
 * EmailTemplate(…)`, `export const variablesSchema = type({…})`, `EmailTemplate.PreviewVariables =
 * {…} satisfies …`), JSX (elements, fragments, attributes, spreads, text) and the expressions they
 * hold (literals, template strings, member paths, `+`, comparisons, `&&`/`||`/`??`, `?:`,
 * object/array literals, arrow functions, calls). Type annotations are read and dropped.
 *
 * @module
 */

/** Where a node starts in its file (1-based line and column, as esbuild reports them). */
export interface Position {
  readonly line: number
  readonly column: number
}

/** An expression. */
export type Expr =
  | { readonly t: "lit"; readonly value: string | number | boolean | null | undefined }
  | { readonly t: "template"; readonly quasis: ReadonlyArray<string>; readonly exprs: ReadonlyArray<Expr> }
  | { readonly t: "id"; readonly name: string; readonly at: Position }
  | { readonly t: "member"; readonly object: Expr; readonly property: string | Expr; readonly optional: boolean }
  | { readonly t: "call"; readonly callee: Expr; readonly args: ReadonlyArray<Expr>; readonly optional: boolean }
  | { readonly t: "unary"; readonly op: "!" | "-" | "+" | "typeof"; readonly arg: Expr }
  | { readonly t: "binary"; readonly op: BinaryOperator; readonly left: Expr; readonly right: Expr }
  | { readonly t: "logical"; readonly op: "&&" | "||" | "??"; readonly left: Expr; readonly right: Expr }
  | { readonly t: "conditional"; readonly test: Expr; readonly consequent: Expr; readonly alternate: Expr }
  | { readonly t: "object"; readonly entries: ReadonlyArray<ObjectEntry> }
  | { readonly t: "array"; readonly items: ReadonlyArray<Expr> }
  | { readonly t: "function"; readonly name: string | undefined; readonly params: ReadonlyArray<Pattern>; readonly body: FunctionBody }
  | { readonly t: "jsx"; readonly tag: Expr | undefined; readonly attributes: ReadonlyArray<JsxAttribute>; readonly children: ReadonlyArray<Expr> }

/** Binary operators of the subset. */
export type BinaryOperator = "+" | "-" | "*" | "/" | "%" | "===" | "!==" | "==" | "!=" | "<" | ">" | "<=" | ">="

/** An entry of an object literal. */
export type ObjectEntry = { readonly key: string; readonly value: Expr } | { readonly spread: Expr }

/** A JSX attribute (`name="…"`, `name={…}`, `name`, `{...spread}`). */
export type JsxAttribute = { readonly name: string; readonly value: Expr } | { readonly spread: Expr }

/** A binding pattern (parameters, `const` declarations). */
export type Pattern =
  | { readonly t: "name"; readonly name: string; readonly fallback: Expr | undefined }
  | {
    readonly t: "object"
    readonly properties: ReadonlyArray<{ readonly key: string; readonly value: Pattern }>
    readonly rest: string | undefined
    readonly fallback: Expr | undefined
  }

/** The body of a function: an expression (arrow functions) or statements. */
export type FunctionBody = { readonly t: "expression"; readonly expr: Expr } | { readonly t: "block"; readonly statements: ReadonlyArray<Statement> }

/** A statement inside a function body. */
export type Statement =
  | { readonly t: "const"; readonly pattern: Pattern; readonly init: Expr }
  | { readonly t: "return"; readonly value: Expr | undefined }
  | { readonly t: "if"; readonly test: Expr; readonly consequent: ReadonlyArray<Statement>; readonly alternate: ReadonlyArray<Statement> }
  | { readonly t: "function"; readonly name: string; readonly fn: Expr }
  | { readonly t: "expression"; readonly expr: Expr }

/** One imported binding: `local` is `imported` of `from` (`*` for a namespace, `default`). */
export interface ImportBinding {
  readonly local: string
  readonly imported: string
  readonly from: string
  readonly at: Position
}

/** A top-level item of a module. */
export type ModuleItem =
  | { readonly t: "declare"; readonly exported: boolean; readonly pattern: Pattern; readonly init: Expr }
  | { readonly t: "assign"; readonly target: Expr; readonly value: Expr }
  | { readonly t: "expression"; readonly expr: Expr }

/** A parsed module. */
export interface ModuleSyntax {
  readonly imports: ReadonlyArray<ImportBinding>
  readonly items: ReadonlyArray<ModuleItem>
}
