/**
 * A parser for the TSX subset of `TsxSyntax.ts`: a recursive descent over the source text (JSX
 * needs the text between tags as it is, so there is no separate tokenizer). It never runs the
 * source. Bounded: a source longer than {@link maxSourceLength} or nested deeper than
 * {@link maxNesting} is refused before it can use much memory or stack. Syntax outside the
 * subset is a build failure worded as esbuild's (`Expected ";" but found "x"`), with its position.
 *
 * @module
 */
import { buildFailure, limitFailure } from "./RenderFailure.js"
import type {
  BinaryOperator,
  Expr,
  FunctionBody,
  ImportBinding,
  JsxAttribute,
  ModuleItem,
  ModuleSyntax,
  ObjectEntry,
  Pattern,
  Position,
  Statement
} from "./TsxSyntax.js"

/** The longest source the emulator renders (characters). */
export const maxSourceLength = 256 * 1024

/** The deepest nesting of expressions, JSX elements and blocks the parser follows. */
export const maxNesting = 200

const identStart = /[A-Za-z_$]/
const identPart = /[A-Za-z0-9_$]/
const keywords = new Set([
  "const",
  "let",
  "var",
  "function",
  "return",
  "if",
  "else",
  "import",
  "export",
  "new",
  "class",
  "for",
  "while",
  "do",
  "switch",
  "throw",
  "try",
  "delete",
  "void",
  "yield",
  "await",
  "async",
  "this",
  "super",
  "with",
  "debugger"
])

const namedEntities: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: "\"",
  apos: "'",
  nbsp: "\u00a0",
  copy: "\u00a9",
  reg: "\u00ae",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
  rarr: "\u2192",
  larr: "\u2190",
  middot: "\u00b7",
  bull: "\u2022",
  trade: "\u2122",
  zwnj: "\u200c"
}

/** Decodes the HTML character references JSX text and attribute strings may hold. */
const decodeEntities = (text: string): string =>
  text.includes("&")
    ? text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z]{2,8});/g, (whole, body: string) => {
      if (body.startsWith("#")) {
        const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10)
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return namedEntities[body] ?? whole
    })
    : text

/** JSX text as React sees it: lines trimmed, blank lines dropped, lines joined by one space. */
const jsxText = (raw: string): string => {
  const lines = raw.split(/\r\n|\n|\r/)
  let lastNonEmpty = -1
  lines.forEach((line, index) => {
    if (/[^ \t]/.test(line)) lastNonEmpty = index
  })
  let text = ""
  lines.forEach((line, index) => {
    let trimmed = line.replace(/\t/g, " ")
    if (index !== 0) trimmed = trimmed.replace(/^ +/, "")
    if (index !== lines.length - 1) trimmed = trimmed.replace(/ +$/, "")
    if (trimmed !== "") {
      if (index !== lastNonEmpty) trimmed += " "
      text += trimmed
    }
  })
  return decodeEntities(text)
}

class Parser {
  private pos = 0
  private depth = 0

  constructor(
    private readonly src: string,
    private readonly file: string
  ) {}

  // ---- positions and errors ----

  private lineStarts: Array<number> | undefined

  private at(offset = this.pos): Position {
    if (this.lineStarts === undefined) {
      const starts = [0]
      for (let i = 0; i < this.src.length; i++) if (this.src.charCodeAt(i) === 10) starts.push(i + 1)
      this.lineStarts = starts
    }
    const starts = this.lineStarts
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const mid = (low + high + 1) >> 1
      if (starts[mid]! <= offset) low = mid
      else high = mid - 1
    }
    return { line: low + 1, column: offset - starts[low]! }
  }

  private fail(message: string, offset = this.pos): never {
    throw buildFailure(this.file, this.at(offset), message)
  }

  private found(): string {
    if (this.pos >= this.src.length) return "end of file"
    const word = /^[A-Za-z0-9_$]+/.exec(this.src.slice(this.pos, this.pos + 40))
    return `"${word !== null ? word[0] : this.src[this.pos]}"`
  }

  private expected(what: string): never {
    return this.fail(`Expected ${what} but found ${this.found()}`)
  }

  private enter() {
    if (++this.depth > maxNesting) throw limitFailure(`The source is nested more than ${maxNesting} levels deep`)
  }

  private leave() {
    this.depth--
  }

  // ---- characters ----

  private skipTrivia(): boolean {
    let newline = false
    for (;;) {
      const c = this.src[this.pos]
      if (c === " " || c === "\t" || c === "\r" || c === "\ufeff") this.pos++
      else if (c === "\n") {
        newline = true
        this.pos++
      } else if (c === "/" && this.src[this.pos + 1] === "/") {
        const end = this.src.indexOf("\n", this.pos)
        this.pos = end === -1 ? this.src.length : end
      } else if (c === "/" && this.src[this.pos + 1] === "*") {
        const end = this.src.indexOf("*/", this.pos + 2)
        if (end === -1) this.fail("Expected \"*/\" to terminate multi-line comment")
        if (this.src.slice(this.pos, end).includes("\n")) newline = true
        this.pos = end + 2
      } else return newline
    }
  }

  private peek(text: string): boolean {
    this.skipTrivia()
    return this.src.startsWith(text, this.pos)
  }

  private eat(text: string): boolean {
    if (!this.peek(text)) return false
    this.pos += text.length
    return true
  }

  private expect(text: string) {
    if (!this.eat(text)) this.expected(`"${text}"`)
  }

  private peekWord(): string | undefined {
    this.skipTrivia()
    if (!identStart.test(this.src[this.pos] ?? "")) return undefined
    let end = this.pos + 1
    while (end < this.src.length && identPart.test(this.src[end]!)) end++
    return this.src.slice(this.pos, end)
  }

  private eatWord(word: string): boolean {
    if (this.peekWord() !== word) return false
    this.pos += word.length
    return true
  }

  private identifier(): string {
    const word = this.peekWord()
    if (word === undefined || keywords.has(word)) return this.expected("identifier")
    this.pos += word.length
    return word
  }

  private semicolon() {
    this.eat(";")
  }

  // ---- types (read and dropped) ----

  /** Where a bracket's balanced span ends, by where it starts (each span is scanned once). */
  private readonly balancedEnd = new Map<number, number>()

  private skipBalanced() {
    const start = this.pos
    const known = this.balancedEnd.get(start)
    if (known !== undefined) {
      this.pos = known
      return
    }
    const open = this.src[this.pos]!
    const close = open === "(" ? ")" : open === "[" ? "]" : open === "{" ? "}" : ">"
    this.pos++
    this.enter()
    for (;;) {
      this.skipTrivia()
      const c = this.src[this.pos]
      if (c === undefined) this.expected(`"${close}"`)
      if (c === close) {
        this.pos++
        this.balancedEnd.set(start, this.pos)
        break
      }
      if (c === "(" || c === "[" || c === "{" || (c === "<" && open === "<")) this.skipBalanced()
      else if (c === "\"" || c === "'" || c === "`") this.stringLiteral()
      else if (c === "=" && this.src[this.pos + 1] === ">") this.pos += 2
      else this.pos++
    }
    this.leave()
  }

  private skipType() {
    this.enter()
    this.eat("|") || this.eat("&")
    for (;;) {
      this.skipTrivia()
      const c = this.src[this.pos]
      if (c === "(" || c === "{" || c === "[") {
        const wasParen = c === "("
        this.skipBalanced()
        if (wasParen && this.eat("=>")) this.skipType()
      } else if (c === "\"" || c === "'" || c === "`") this.stringLiteral()
      else if (c !== undefined && /[0-9-]/.test(c)) this.numberLiteral()
      else {
        const word = this.peekWord()
        if (word === undefined) this.expected("type")
        this.pos += word.length
        if (word === "typeof" || word === "keyof" || word === "readonly" || word === "unique") continue
        while (this.eat(".")) this.identifierName()
        if (this.peek("<")) this.skipBalanced()
      }
      while (this.peek("[")) this.skipBalanced()
      if (this.eat("|") || this.eat("&")) continue
      break
    }
    this.leave()
  }

  private identifierName(): string {
    const word = this.peekWord()
    if (word === undefined) return this.expected("identifier")
    this.pos += word.length
    return word
  }

  // ---- literals ----

  private stringLiteral(): string {
    const quote = this.src[this.pos]!
    if (quote === "`") return this.fail("Template literals are only supported as expressions")
    let value = ""
    let i = this.pos + 1
    for (;;) {
      const c = this.src[i]
      if (c === undefined || c === "\n") this.fail("Unterminated string literal")
      if (c === quote) break
      if (c === "\\") {
        value += this.escape(i)
        i += this.escapeLength(i)
      } else {
        value += c
        i++
      }
    }
    this.pos = i + 1
    return value
  }

  private escapeLength(i: number): number {
    const c = this.src[i + 1]
    if (c === "x") return 4
    if (c === "u") return this.src[i + 2] === "{" ? Math.max(this.src.indexOf("}", i) - i + 1, 3) : 6
    if (c === "\r" && this.src[i + 2] === "\n") return 3
    return 2
  }

  private escape(i: number): string {
    const c = this.src[i + 1]
    switch (c) {
      case "n":
        return "\n"
      case "t":
        return "\t"
      case "r":
        return "\r"
      case "b":
        return "\b"
      case "f":
        return "\f"
      case "v":
        return "\v"
      case "0":
        return "\0"
      case "\n":
      case "\r":
        return ""
      case "x":
      case "u": {
        if (c === "u" && this.src[i + 2] === "{" && this.src.indexOf("}", i) === -1) this.fail("Syntax error \"\\\"", i)
        const hex = c === "x"
          ? this.src.slice(i + 2, i + 4)
          : this.src[i + 2] === "{"
          ? this.src.slice(i + 3, this.src.indexOf("}", i))
          : this.src.slice(i + 2, i + 6)
        const code = /^[0-9a-fA-F]{1,6}$/.test(hex) ? parseInt(hex, 16) : NaN
        if (!(code >= 0 && code <= 0x10ffff)) this.fail("Syntax error \"\\\"", i)
        return String.fromCodePoint(code)
      }
      case undefined:
        return this.fail("Unterminated string literal", i)
      default:
        return c
    }
  }

  private numberLiteral(): number {
    const match = /^-?(?:0[xX][0-9a-fA-F_]+|(?:[0-9][0-9_]*)?\.?[0-9_]+(?:[eE][+-]?[0-9]+)?)/.exec(this.src.slice(this.pos, this.pos + 64))
    if (match === null) return this.expected("number")
    this.pos += match[0].length
    return Number(match[0].replace(/_/g, ""))
  }

  private templateLiteral(): Expr {
    this.pos++ // `
    const quasis: Array<string> = []
    const exprs: Array<Expr> = []
    let current = ""
    for (;;) {
      const c = this.src[this.pos]
      if (c === undefined) this.fail("Unterminated template literal")
      if (c === "`") {
        this.pos++
        break
      }
      if (c === "\\") {
        current += this.escape(this.pos)
        this.pos += this.escapeLength(this.pos)
      } else if (c === "$" && this.src[this.pos + 1] === "{") {
        this.pos += 2
        quasis.push(current)
        current = ""
        exprs.push(this.expression())
        this.expect("}")
      } else {
        current += c
        this.pos++
      }
    }
    quasis.push(current)
    return { t: "template", quasis, exprs }
  }

  // ---- expressions ----

  expression(): Expr {
    this.enter()
    const expr = this.conditional()
    this.leave()
    return expr
  }

  private conditional(): Expr {
    const test = this.coalesce()
    if (this.peek("?") && !this.peek("?.") && !this.peek("??")) {
      this.pos++
      const consequent = this.expression()
      this.expect(":")
      const alternate = this.expression()
      return { t: "conditional", test, consequent, alternate }
    }
    return test
  }

  private coalesce(): Expr {
    let left = this.or()
    while (this.peek("??") && !this.peek("??=")) {
      this.pos += 2
      left = { t: "logical", op: "??", left, right: this.or() }
    }
    return left
  }

  private or(): Expr {
    let left = this.and()
    while (this.peek("||") && !this.peek("||=")) {
      this.pos += 2
      left = { t: "logical", op: "||", left, right: this.and() }
    }
    return left
  }

  private and(): Expr {
    let left = this.equality()
    while (this.peek("&&") && !this.peek("&&=")) {
      this.pos += 2
      left = { t: "logical", op: "&&", left, right: this.equality() }
    }
    return left
  }

  private equality(): Expr {
    let left = this.relational()
    for (;;) {
      const op = this.operator(["===", "!==", "==", "!="])
      if (op === undefined) return left
      left = { t: "binary", op, left, right: this.relational() }
    }
  }

  private relational(): Expr {
    let left = this.additive()
    for (;;) {
      const op = this.operator(["<=", ">=", "<", ">"])
      if (op === undefined) return left
      left = { t: "binary", op, left, right: this.additive() }
    }
  }

  private additive(): Expr {
    let left = this.multiplicative()
    for (;;) {
      const op = this.operator(["+", "-"])
      if (op === undefined) return left
      left = { t: "binary", op, left, right: this.multiplicative() }
    }
  }

  private multiplicative(): Expr {
    let left = this.typeAssertion()
    for (;;) {
      const op = this.operator(["*", "/", "%"])
      if (op === undefined) return left
      left = { t: "binary", op, left, right: this.typeAssertion() }
    }
  }

  /** `expr as T`, `expr satisfies T`, `expr!`: the type is dropped. */
  private typeAssertion(): Expr {
    const expr = this.unary()
    for (;;) {
      const word = this.peekWord()
      if (word === "as" || word === "satisfies") {
        this.pos += word.length
        this.skipType()
      } else return expr
    }
  }

  private operator<Op extends BinaryOperator>(ops: ReadonlyArray<Op>): Op | undefined {
    this.skipTrivia()
    for (const op of ops) {
      if (this.src.startsWith(op, this.pos)) {
        const next = this.src[this.pos + op.length]
        // not `+=`, `++`, `=>`, `<=` read as `<`, a JSX closing tag, or `**`
        if (next === "=" && !op.endsWith("=")) continue
        if ((op === "+" || op === "-") && next === op) this.fail(`Unsupported operator "${op}${op}"`)
        if (op === "*" && next === "*") this.fail("Unsupported operator \"**\"")
        this.pos += op.length
        return op
      }
    }
    return undefined
  }

  private unary(): Expr {
    this.skipTrivia()
    const c = this.src[this.pos]
    if (c === "!" && this.src[this.pos + 1] !== "=") {
      this.pos++
      this.enter()
      const arg = this.unary()
      this.leave()
      return { t: "unary", op: "!", arg }
    }
    if ((c === "-" || c === "+") && this.src[this.pos + 1] !== c) {
      this.pos++
      this.enter()
      const arg = this.unary()
      this.leave()
      return { t: "unary", op: c, arg }
    }
    if (this.peekWord() === "typeof") {
      this.pos += 6
      this.enter()
      const arg = this.unary()
      this.leave()
      return { t: "unary", op: "typeof", arg }
    }
    return this.postfix(this.primary())
  }

  private postfix(start: Expr): Expr {
    let expr = start
    for (;;) {
      if (this.eat("?.")) {
        if (this.peek("(")) expr = { t: "call", callee: expr, args: this.arguments(), optional: true }
        else if (this.eat("[")) {
          const property = this.expression()
          this.expect("]")
          expr = { t: "member", object: expr, property, optional: true }
        } else expr = { t: "member", object: expr, property: this.identifierName(), optional: true }
      } else if (this.peek(".") && !this.peek("...")) {
        this.pos++
        expr = { t: "member", object: expr, property: this.identifierName(), optional: false }
      } else if (this.peek("[")) {
        this.pos++
        const property = this.expression()
        this.expect("]")
        expr = { t: "member", object: expr, property, optional: false }
      } else if (this.peek("(")) {
        expr = { t: "call", callee: expr, args: this.arguments(), optional: false }
      } else if (this.peek("!") && !this.peek("!=")) {
        this.pos++ // non-null assertion
      } else return expr
    }
  }

  private arguments(): ReadonlyArray<Expr> {
    this.expect("(")
    const args: Array<Expr> = []
    while (!this.eat(")")) {
      if (this.peek("...")) this.fail("Spread arguments are not supported by the emulator's renderer")
      args.push(this.expression())
      if (!this.eat(",")) {
        this.expect(")")
        break
      }
    }
    return args
  }

  private isArrowAhead(): boolean {
    // from "(" : find the matching ")" and look for "=>" (optionally after a return type)
    const start = this.pos
    const depth = this.depth
    try {
      this.skipBalanced()
      if (this.peek(":")) {
        this.pos++
        this.skipType()
      }
      return this.peek("=>")
    } catch {
      return false
    } finally {
      this.pos = start
      this.depth = depth
    }
  }

  private primary(): Expr {
    this.skipTrivia()
    const start = this.pos
    const c = this.src[this.pos]
    if (c === undefined) return this.expected("expression")
    if (c === "\"" || c === "'") return { t: "lit", value: this.stringLiteral() }
    if (c === "`") return this.templateLiteral()
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(this.src[this.pos + 1] ?? ""))) return { t: "lit", value: this.numberLiteral() }
    if (c === "(") {
      if (this.isArrowAhead()) return this.arrow()
      this.pos++
      const inner = this.expression()
      this.expect(")")
      return inner
    }
    if (c === "[") return this.arrayLiteral()
    if (c === "{") return this.objectLiteral()
    if (c === "<") return this.jsxElement()
    const word = this.peekWord()
    if (word === undefined) return this.fail(`Unexpected ${this.found()}`)
    if (word === "true" || word === "false") {
      this.pos += word.length
      return { t: "lit", value: word === "true" }
    }
    if (word === "null") {
      this.pos += 4
      return { t: "lit", value: null }
    }
    if (word === "undefined") {
      this.pos += 9
      return { t: "lit", value: undefined }
    }
    if (word === "function") return this.functionExpression()
    if (keywords.has(word)) return this.fail(`Unsupported syntax "${word}" (the emulator renders a subset of TSX)`)
    this.pos += word.length
    if (this.peek("=>")) {
      this.pos += 2
      return { t: "function", name: undefined, params: [{ t: "name", name: word, fallback: undefined }], body: this.arrowBody() }
    }
    return { t: "id", name: word, at: this.at(start) }
  }

  private arrow(): Expr {
    const params = this.parameters()
    if (this.eat(":")) this.skipType()
    this.expect("=>")
    return { t: "function", name: undefined, params, body: this.arrowBody() }
  }

  private arrowBody(): FunctionBody {
    if (this.peek("{")) return { t: "block", statements: this.block() }
    return { t: "expression", expr: this.expression() }
  }

  private functionExpression(): Expr {
    this.eatWord("function")
    const name = this.peekWord() !== undefined ? this.identifier() : undefined
    const params = this.parameters()
    if (this.eat(":")) this.skipType()
    return { t: "function", name, params, body: { t: "block", statements: this.block() } }
  }

  private parameters(): ReadonlyArray<Pattern> {
    this.expect("(")
    const params: Array<Pattern> = []
    while (!this.eat(")")) {
      const pattern = this.pattern()
      this.eat("?")
      if (this.eat(":")) this.skipType()
      const fallback = this.eat("=") ? this.expression() : undefined
      params.push(fallback === undefined ? pattern : { ...pattern, fallback })
      if (!this.eat(",")) {
        this.expect(")")
        break
      }
    }
    return params
  }

  private pattern(): Pattern {
    if (!this.eat("{")) return { t: "name", name: this.identifier(), fallback: undefined }
    this.enter()
    const properties: Array<{ key: string; value: Pattern }> = []
    let rest: string | undefined
    while (!this.eat("}")) {
      if (this.eat("...")) rest = this.identifier()
      else {
        const key = this.propertyKey()
        let value: Pattern = this.eat(":") ? this.pattern() : { t: "name", name: key, fallback: undefined }
        if (this.eat("=")) value = { ...value, fallback: this.expression() }
        properties.push({ key, value })
      }
      if (!this.eat(",")) {
        this.expect("}")
        break
      }
    }
    this.leave()
    return { t: "object", properties, rest, fallback: undefined }
  }

  private propertyKey(): string {
    this.skipTrivia()
    const c = this.src[this.pos]
    if (c === "\"" || c === "'") return this.stringLiteral()
    if (c !== undefined && /[0-9]/.test(c)) return String(this.numberLiteral())
    return this.identifierName()
  }

  private arrayLiteral(): Expr {
    this.pos++
    this.enter()
    const items: Array<Expr> = []
    while (!this.eat("]")) {
      if (this.peek("...")) this.fail("Array spreads are not supported by the emulator's renderer")
      items.push(this.expression())
      if (!this.eat(",")) {
        this.expect("]")
        break
      }
    }
    this.leave()
    return { t: "array", items }
  }

  private objectLiteral(): Expr {
    this.pos++
    this.enter()
    const entries: Array<ObjectEntry> = []
    while (!this.eat("}")) {
      if (this.eat("...")) entries.push({ spread: this.expression() })
      else if (this.eat("[")) this.fail("Computed keys are not supported by the emulator's renderer")
      else {
        this.skipTrivia()
        const shorthandStart = this.pos
        const key = this.propertyKey()
        if (this.eat(":")) entries.push({ key, value: this.expression() })
        else if (this.peek("(")) {
          const params = this.parameters()
          if (this.eat(":")) this.skipType()
          entries.push({ key, value: { t: "function", name: key, params, body: { t: "block", statements: this.block() } } })
        } else entries.push({ key, value: { t: "id", name: key, at: this.at(shorthandStart) } })
      }
      if (!this.eat(",")) {
        this.expect("}")
        break
      }
    }
    this.leave()
    return { t: "object", entries }
  }

  // ---- JSX ----

  private jsxName(): Expr {
    this.skipTrivia()
    const start = this.pos
    const match = /^[A-Za-z_$][A-Za-z0-9_$-]*/.exec(this.src.slice(this.pos, this.pos + 200))
    if (match === null) return this.expected("JSX element name")
    this.pos += match[0].length
    const name = match[0]
    if (/^[a-z]/.test(name) || name.includes("-")) {
      if (this.src[this.pos] === ".") this.fail("Unexpected \".\"")
      return { t: "lit", value: name }
    }
    let expr: Expr = { t: "id", name, at: this.at(start) }
    while (this.src[this.pos] === ".") {
      this.pos++
      expr = { t: "member", object: expr, property: this.identifierName(), optional: false }
    }
    return expr
  }

  private jsxElement(): Expr {
    const open = this.pos
    this.pos++ // <
    this.enter()
    if (this.eat(">")) {
      const children = this.jsxChildren(undefined)
      this.leave()
      return { t: "jsx", tag: undefined, attributes: [], children }
    }
    const tag = this.jsxName()
    if (this.peek("<")) this.fail("Type arguments on JSX elements are not supported by the emulator's renderer")
    const attributes: Array<JsxAttribute> = []
    for (;;) {
      if (this.eat("/>")) {
        this.leave()
        return { t: "jsx", tag, attributes, children: [] }
      }
      if (this.eat(">")) break
      if (this.eat("{")) {
        this.expect("...")
        attributes.push({ spread: this.expression() })
        this.expect("}")
        continue
      }
      this.skipTrivia()
      const match = /^[A-Za-z_$][A-Za-z0-9_$:-]*/.exec(this.src.slice(this.pos, this.pos + 200))
      if (match === null) this.expected("\">\"")
      this.pos += match[0].length
      const name = match[0]
      if (!this.eat("=")) {
        attributes.push({ name, value: { t: "lit", value: true } })
        continue
      }
      this.skipTrivia()
      const c = this.src[this.pos]
      if (c === "\"" || c === "'") {
        const end = this.src.indexOf(c, this.pos + 1)
        if (end === -1) this.fail("Unterminated string literal")
        attributes.push({ name, value: { t: "lit", value: decodeEntities(this.src.slice(this.pos + 1, end)) } })
        this.pos = end + 1
      } else if (c === "{") {
        this.pos++
        attributes.push({ name, value: this.expression() })
        this.expect("}")
      } else if (c === "<") attributes.push({ name, value: this.jsxElement() })
      else this.expected("\"{\"")
    }
    const children = this.jsxChildren(tag)
    this.leave()
    void open
    return { t: "jsx", tag, attributes, children }
  }

  private sameTag(a: Expr | undefined, b: Expr | undefined): boolean {
    if (a === undefined || b === undefined) return a === b
    if (a.t === "lit" && b.t === "lit") return a.value === b.value
    if (a.t === "id" && b.t === "id") return a.name === b.name
    if (a.t === "member" && b.t === "member") return a.property === b.property && this.sameTag(a.object, b.object)
    return false
  }

  private tagText(tag: Expr | undefined): string {
    if (tag === undefined) return ""
    if (tag.t === "lit") return String(tag.value)
    if (tag.t === "id") return tag.name
    if (tag.t === "member") return `${this.tagText(tag.object)}.${String(tag.property)}`
    return "?"
  }

  private jsxChildren(tag: Expr | undefined): ReadonlyArray<Expr> {
    const children: Array<Expr> = []
    for (;;) {
      const textStart = this.pos
      while (this.pos < this.src.length && this.src[this.pos] !== "<" && this.src[this.pos] !== "{") {
        if (this.src[this.pos] === ">" || this.src[this.pos] === "}") this.fail(`The character "${this.src[this.pos]}" is not valid inside a JSX element`)
        this.pos++
      }
      if (this.pos > textStart) {
        const text = jsxText(this.src.slice(textStart, this.pos))
        if (text !== "") children.push({ t: "lit", value: text })
      }
      if (this.pos >= this.src.length) this.fail(`Unexpected end of file before a closing "${this.tagText(tag)}" tag`)
      if (this.src[this.pos] === "{") {
        this.pos++
        if (this.eat("}")) continue // {/* comment */}
        if (this.peek("...")) this.fail("Spread children are not supported")
        children.push(this.expression())
        this.expect("}")
        continue
      }
      if (this.src.startsWith("</", this.pos)) {
        const closeAt = this.pos
        this.pos += 2
        const closing = this.peek(">") ? undefined : this.jsxName()
        if (!this.sameTag(tag, closing)) {
          this.fail(`Unexpected closing "${this.tagText(closing)}" tag does not match opening "${this.tagText(tag)}" tag`, closeAt)
        }
        this.expect(">")
        return children
      }
      children.push(this.jsxElement())
    }
  }

  // ---- statements ----

  private block(): ReadonlyArray<Statement> {
    this.expect("{")
    this.enter()
    const statements: Array<Statement> = []
    while (!this.eat("}")) {
      if (this.pos >= this.src.length) this.expected("\"}\"")
      const statement = this.statement()
      if (statement !== undefined) statements.push(statement)
    }
    this.leave()
    return statements
  }

  private statement(): Statement | undefined {
    if (this.eat(";")) return undefined
    const word = this.peekWord()
    if (word === "const" || word === "let") {
      this.pos += word.length
      const pattern = this.pattern()
      if (this.eat(":")) this.skipType()
      this.expect("=")
      const init = this.expression()
      this.semicolon()
      return { t: "const", pattern, init }
    }
    if (word === "return") {
      this.pos += 6
      const newline = this.skipTrivia()
      const value = newline || this.peek(";") || this.peek("}") ? undefined : this.expression()
      this.semicolon()
      return { t: "return", value }
    }
    if (word === "if") {
      this.pos += 2
      this.expect("(")
      const test = this.expression()
      this.expect(")")
      const consequent = this.branch()
      const alternate = this.eatWord("else") ? this.branch() : []
      return { t: "if", test, consequent, alternate }
    }
    if (word === "function") {
      const fn = this.functionExpression()
      if (fn.t !== "function" || fn.name === undefined) return this.expected("function name")
      return { t: "function", name: fn.name, fn }
    }
    if (word !== undefined && keywords.has(word)) this.fail(`Unsupported syntax "${word}" (the emulator renders a subset of TSX)`)
    const expr = this.expression()
    this.semicolon()
    return { t: "expression", expr }
  }

  private branch(): ReadonlyArray<Statement> {
    if (this.peek("{")) return this.block()
    const statement = this.statement()
    return statement === undefined ? [] : [statement]
  }

  // ---- module ----

  private importDeclaration(into: Array<ImportBinding>) {
    const at = this.at()
    this.eatWord("import")
    if (this.peekWord() === "type" && !this.peek("type,") && !/^type\s+from\b/.test(this.src.slice(this.pos))) {
      // `import type { … } from "…"`: types only
      this.pos += 4
      this.skipImportClause()
      this.semicolon()
      return
    }
    this.skipTrivia()
    if (this.src[this.pos] === "\"" || this.src[this.pos] === "'") {
      this.stringLiteral() // side-effect import
      this.semicolon()
      return
    }
    const bindings: Array<{ local: string; imported: string }> = []
    if (this.eat("*")) {
      if (!this.eatWord("as")) this.expected("\"as\"")
      bindings.push({ local: this.identifier(), imported: "*" })
    } else {
      if (!this.peek("{")) {
        bindings.push({ local: this.identifier(), imported: "default" })
        if (this.eat(",")) {
          if (this.eat("*")) {
            if (!this.eatWord("as")) this.expected("\"as\"")
            bindings.push({ local: this.identifier(), imported: "*" })
          }
        }
      }
      if (this.eat("{")) {
        while (!this.eat("}")) {
          let typeOnly = false
          if (this.peekWord() === "type") {
            const save = this.pos
            this.pos += 4
            if (this.peekWord() !== undefined && this.peekWord() !== "as") typeOnly = true
            else this.pos = save
          }
          const imported = this.identifierName()
          const local = this.eatWord("as") ? this.identifier() : imported
          if (!typeOnly) bindings.push({ local, imported })
          if (!this.eat(",")) {
            this.expect("}")
            break
          }
        }
      }
    }
    if (!this.eatWord("from")) this.expected("\"from\"")
    this.skipTrivia()
    const quote = this.src[this.pos]
    if (quote !== "\"" && quote !== "'") this.expected("string")
    const from = this.stringLiteral()
    this.semicolon()
    for (const binding of bindings) into.push({ ...binding, from, at })
  }

  private skipImportClause() {
    while (!this.eatWord("from")) {
      this.skipTrivia()
      if (this.pos >= this.src.length) this.expected("\"from\"")
      if (this.src[this.pos] === "{") this.skipBalanced()
      else this.pos++
    }
    this.skipTrivia()
    this.stringLiteral()
  }

  private typeDeclaration() {
    // `type X<…> = …` or `interface X<…> { … }`
    const word = this.identifierName()
    this.identifierName()
    if (this.peek("<")) this.skipBalanced()
    if (word === "interface") {
      while (this.eatWord("extends")) {
        this.skipType()
        this.eat(",")
      }
      if (!this.peek("{")) this.expected("\"{\"")
      this.skipBalanced()
    } else {
      this.expect("=")
      this.skipType()
    }
    this.semicolon()
  }

  module(): ModuleSyntax {
    const imports: Array<ImportBinding> = []
    const items: Array<ModuleItem> = []
    for (;;) {
      this.skipTrivia()
      if (this.pos >= this.src.length) break
      if (this.eat(";")) continue
      const word = this.peekWord()
      if (word === "import") {
        this.importDeclaration(imports)
        continue
      }
      let exported = false
      if (word === "export") {
        this.pos += 6
        exported = true
        if (this.peekWord() === "default") this.fail("Default exports are not used: export EmailTemplate (templates) or EmailTheme (themes) by name")
      }
      const next = this.peekWord()
      if (next === "type" || next === "interface") {
        this.typeDeclaration()
        continue
      }
      if (next === "function" || next === "async") {
        if (next === "async") this.fail("Unsupported syntax \"async\" (the emulator renders a subset of TSX)")
        const fn = this.functionExpression()
        if (fn.t !== "function" || fn.name === undefined) return this.expected("function name")
        items.push({ t: "declare", exported, pattern: { t: "name", name: fn.name, fallback: undefined }, init: fn })
        continue
      }
      if (next === "const" || next === "let" || next === "var") {
        this.pos += next.length
        const pattern = this.pattern()
        if (this.eat(":")) this.skipType()
        this.expect("=")
        const init = this.expression()
        this.semicolon()
        items.push({ t: "declare", exported, pattern, init })
        continue
      }
      if (exported) this.expected("declaration")
      const expr = this.expression()
      if (this.peek("=") && !this.peek("==") && !this.peek("=>")) {
        this.pos++
        if (expr.t !== "member" && expr.t !== "id") this.fail("Invalid assignment target")
        const value = this.expression()
        this.semicolon()
        items.push({ t: "assign", target: expr, value })
        continue
      }
      this.semicolon()
      items.push({ t: "expression", expr })
    }
    return { imports, items }
  }
}

/**
 * Parses a template or theme source. Throws a `RenderFailure` (`build` for syntax outside the
 * subset, `limit` for a source too long or too deeply nested).
 */
export const parseModule = (source: string, file: string): ModuleSyntax => {
  if (source.length > maxSourceLength) {
    throw limitFailure(`The source is ${source.length} characters long; the emulator renders sources of at most ${maxSourceLength} characters`)
  }
  return new Parser(source, file).module()
}
