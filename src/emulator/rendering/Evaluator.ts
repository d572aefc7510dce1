/**
 * Evaluates a parsed template or theme (`TsxSyntax.ts`) without running any code of the host: a
 * tree-walking interpreter over the subset's expressions and statements, with JavaScript's
 * semantics for them (truthiness, `+` on strings, `?.`, destructuring, closures) and the errors
 * JavaScript would throw (`x is not defined`, `Cannot read properties of undefined (reading 'y')`,
 * `f is not a function`), as runtime failures. Every step draws on the rendering's `Budget`.
 *
 * @module
 */
import { buildFailure, runtimeFailure } from "./RenderFailure.js"
import type { Expr, ImportBinding, ModuleSyntax, Pattern, Statement } from "./TsxSyntax.js"
import { Budget, Builtin, Element, isCallable, Obj, Scope, toText, truthy, typeOf, UserFunction } from "./Values.js"
import type { Value } from "./Values.js"

/** What an import resolves to: the module's exports, or why it does not resolve. */
export type ModuleResolver = (from: string) => ReadonlyMap<string, Value> | undefined

/** Reads a property as JavaScript would (own fields only: no prototype is reachable). */
export const getProperty = (object: Value, key: string): Value => {
  if (object === undefined || object === null) {
    throw runtimeFailure(`Cannot read properties of ${String(object)} (reading '${key}')`)
  }
  if (object instanceof Obj) return object.get(key)
  if (typeof object === "string") {
    if (key === "length") return object.length
    return /^(0|[1-9][0-9]*)$/.test(key) ? object[Number(key)] : undefined
  }
  if (Array.isArray(object)) {
    const array = object as ReadonlyArray<Value>
    if (key === "length") return array.length
    return /^(0|[1-9][0-9]*)$/.test(key) ? array[Number(key)] : undefined
  }
  if (object instanceof UserFunction || object instanceof Builtin) {
    if (key === "name") return object.name ?? ""
    return object.fields.get(key)
  }
  if (object instanceof Element) {
    if (key === "props") return object.props
    if (key === "type") return object.type
  }
  return undefined
}

const add = (left: Value, right: Value, budget: Budget): Value => {
  if (typeof left === "number" && typeof right === "number") return left + right
  const leftPrimitive = left === null || left === undefined || typeof left !== "object"
  const rightPrimitive = right === null || right === undefined || typeof right !== "object"
  if (typeof left === "string" || typeof right === "string" || !leftPrimitive || !rightPrimitive) {
    return budget.length(toText(left, budget) + toText(right, budget))
  }
  return toNumber(left) + toNumber(right)
}

const toNumber = (value: Value): number => {
  if (typeof value === "number") return value
  if (typeof value === "boolean") return value ? 1 : 0
  if (value === null) return 0
  if (typeof value === "string") return value.trim() === "" ? 0 : Number(value)
  return NaN
}

const looseEquals = (left: Value, right: Value): boolean => {
  if ((left === null || left === undefined) && (right === null || right === undefined)) return true
  if (left === null || left === undefined || right === null || right === undefined) return false
  if (typeof left === typeof right) return left === right
  if (typeof left === "object" || typeof right === "object") return false
  return toNumber(left) === toNumber(right)
}

/** The interpreter of one rendering. */
export class Evaluator {
  constructor(readonly budget: Budget) {}

  /** Evaluates a module: its exports by name (imports resolved when first used). */
  module(syntax: ModuleSyntax, file: string, resolve: ModuleResolver): ReadonlyMap<string, Value> {
    const scope = new Scope(undefined)
    for (const binding of syntax.imports) scope.declare(binding.local, this.importValue(binding, file, resolve))
    const exports = new Map<string, Value>()
    // function declarations are hoisted
    for (const item of syntax.items) {
      if (item.t === "declare" && item.init.t === "function" && item.pattern.t === "name") {
        const fn = this.evaluate(item.init, scope)
        scope.declare(item.pattern.name, fn)
        if (item.exported) exports.set(item.pattern.name, fn)
      }
    }
    for (const item of syntax.items) {
      this.budget.step()
      if (item.t === "declare") {
        if (item.init.t === "function" && item.pattern.t === "name") continue
        const value = this.evaluate(item.init, scope)
        for (const [name, bound] of this.bind(item.pattern, value, scope)) {
          scope.declare(name, bound)
          if (item.exported) exports.set(name, bound)
        }
      } else if (item.t === "assign") {
        this.assign(item.target, this.evaluate(item.value, scope), scope)
      } else this.evaluate(item.expr, scope)
    }
    return exports
  }

  private importValue(binding: ImportBinding, file: string, resolve: ModuleResolver): Value {
    const exports = resolve(binding.from)
    if (exports === undefined) throw buildFailure(file, binding.at, `Could not resolve "${binding.from}"`)
    if (binding.imported === "*") {
      const namespace = new Obj()
      for (const [name, value] of exports) namespace.fields.set(name, value)
      namespace.frozen = true
      return namespace
    }
    if (!exports.has(binding.imported)) {
      // unused imports are dropped (as TypeScript's are); a missing one fails where it is used:
      // @stackframe/emails is bundled (esbuild's error), the others are external ES modules
      return new Builtin(binding.imported, () => {
        if (binding.from === "@stackframe/emails") {
          throw buildFailure(file, binding.at, `No matching export in "${binding.from}" for import "${binding.imported}"`)
        }
        throw runtimeFailure(`The requested module '${binding.from}' does not provide an export named '${binding.imported}'`)
      })
    }
    return exports.get(binding.imported)
  }

  private assign(target: Expr, value: Value, scope: Scope) {
    if (target.t === "member") {
      const object = this.evaluate(target.object, scope)
      const key = typeof target.property === "string" ? target.property : toText(this.evaluate(target.property, scope), this.budget)
      // what the renderer provides is shared by every rendering: frozen, as a module's exports are
      if ((object instanceof Obj && object.frozen) || object instanceof Builtin) throw runtimeFailure(`Cannot add property ${key}, object is not extensible`)
      if (object instanceof Obj) object.fields.set(key, value)
      else if (object instanceof UserFunction) object.fields.set(key, value)
      else if (object === undefined || object === null) throw runtimeFailure(`Cannot set properties of ${String(object)} (setting '${key}')`)
      return
    }
    if (target.t === "id") {
      if (!scope.has(target.name)) throw runtimeFailure(`${target.name} is not defined`)
      throw runtimeFailure("Assignment to constant variable.")
    }
  }

  /** Binds a pattern to a value: the names it declares. */
  bind(pattern: Pattern, given: Value, scope: Scope): ReadonlyArray<readonly [string, Value]> {
    const value = given === undefined && pattern.fallback !== undefined ? this.evaluate(pattern.fallback, scope) : given
    if (pattern.t === "name") return [[pattern.name, value]]
    if (value === undefined || value === null) {
      const first = pattern.properties[0]?.key
      throw runtimeFailure(
        first === undefined
          ? `Cannot destructure '${String(value)}' as it is ${String(value)}.`
          : `Cannot destructure property '${first}' of '${String(value)}' as it is ${String(value)}.`
      )
    }
    const bound: Array<readonly [string, Value]> = []
    for (const property of pattern.properties) bound.push(...this.bind(property.value, getProperty(value, property.key), scope))
    if (pattern.rest !== undefined) {
      const rest = new Obj()
      if (value instanceof Obj) {
        const taken = new Set(pattern.properties.map((property) => property.key))
        for (const [key, field] of value.fields) {
          this.budget.step()
          if (!taken.has(key)) rest.fields.set(key, field)
        }
      }
      bound.push([pattern.rest, rest])
    }
    return bound
  }

  /** Calls a function with arguments. */
  call(callee: Value, args: ReadonlyArray<Value>, description: string): Value {
    if (callee instanceof Builtin) {
      this.budget.enter()
      try {
        return callee.call(args, this.budget)
      } finally {
        this.budget.leave()
      }
    }
    if (!(callee instanceof UserFunction)) throw runtimeFailure(`${description} is not a function`)
    this.budget.enter()
    try {
      const scope = new Scope(callee.scope)
      callee.params.forEach((param, index) => {
        for (const [name, value] of this.bind(param, args[index], scope)) scope.declare(name, value)
      })
      if (callee.body.t === "expression") return this.evaluate(callee.body.expr, scope)
      const result = this.run(callee.body.statements, scope)
      return result.returned ? result.value : undefined
    } finally {
      this.budget.leave()
    }
  }

  private run(statements: ReadonlyArray<Statement>, scope: Scope): { readonly returned: boolean; readonly value: Value } {
    for (const statement of statements) {
      if (statement.t === "function") scope.declare(statement.name, this.evaluate(statement.fn, scope))
    }
    for (const statement of statements) {
      this.budget.step()
      switch (statement.t) {
        case "const":
          for (const [name, value] of this.bind(statement.pattern, this.evaluate(statement.init, scope), scope)) scope.declare(name, value)
          break
        case "return":
          return { returned: true, value: statement.value === undefined ? undefined : this.evaluate(statement.value, scope) }
        case "if": {
          const branch = truthy(this.evaluate(statement.test, scope)) ? statement.consequent : statement.alternate
          this.budget.enter()
          try {
            const result = this.run(branch, new Scope(scope))
            if (result.returned) return result
          } finally {
            this.budget.leave()
          }
          break
        }
        case "function":
          break
        case "expression":
          this.evaluate(statement.expr, scope)
          break
      }
    }
    return { returned: false, value: undefined }
  }

  private describe(expr: Expr): string {
    if (expr.t === "id") return expr.name
    if (expr.t === "member" && typeof expr.property === "string") return `${this.describe(expr.object)}.${expr.property}`
    return "expression"
  }

  /** Evaluates an expression. */
  evaluate(expr: Expr, scope: Scope): Value {
    this.budget.enter()
    try {
      return this.evaluateInner(expr, scope)
    } finally {
      this.budget.leave()
    }
  }

  private evaluateInner(expr: Expr, scope: Scope): Value {
    switch (expr.t) {
      case "lit":
        return expr.value
      case "template": {
        let text = expr.quasis[0] ?? ""
        expr.exprs.forEach((part, index) => {
          text = this.budget.length(text + toText(this.evaluate(part, scope), this.budget) + (expr.quasis[index + 1] ?? ""))
        })
        return text
      }
      case "id":
        return scope.lookup(expr.name)
      case "member": {
        const object = this.evaluate(expr.object, scope)
        if (expr.optional && (object === undefined || object === null)) return undefined
        const key = typeof expr.property === "string" ? expr.property : toText(this.evaluate(expr.property, scope), this.budget)
        return getProperty(object, key)
      }
      case "call": {
        const callee = this.evaluate(expr.callee, scope)
        if (expr.optional && (callee === undefined || callee === null)) return undefined
        const args = expr.args.map((arg) => this.evaluate(arg, scope))
        if (!isCallable(callee)) throw runtimeFailure(`${this.describe(expr.callee)} is not a function`)
        return this.call(callee, args, this.describe(expr.callee))
      }
      case "unary": {
        const arg = this.evaluate(expr.arg, scope)
        switch (expr.op) {
          case "!":
            return !truthy(arg)
          case "-":
            return -toNumber(arg)
          case "+":
            return toNumber(arg)
          case "typeof":
            return typeOf(arg)
        }
        break
      }
      case "binary": {
        const left = this.evaluate(expr.left, scope)
        const right = this.evaluate(expr.right, scope)
        switch (expr.op) {
          case "+":
            return add(left, right, this.budget)
          case "-":
            return toNumber(left) - toNumber(right)
          case "*":
            return toNumber(left) * toNumber(right)
          case "/":
            return toNumber(left) / toNumber(right)
          case "%":
            return toNumber(left) % toNumber(right)
          case "===":
            return left === right
          case "!==":
            return left !== right
          case "==":
            return looseEquals(left, right)
          case "!=":
            return !looseEquals(left, right)
          default: {
            const bothText = typeof left === "string" && typeof right === "string"
            const a = bothText ? left : toNumber(left)
            const b = bothText ? right : toNumber(right)
            return expr.op === "<" ? a < b : expr.op === ">" ? a > b : expr.op === "<=" ? a <= b : a >= b
          }
        }
      }
      case "logical": {
        const left = this.evaluate(expr.left, scope)
        if (expr.op === "&&") return truthy(left) ? this.evaluate(expr.right, scope) : left
        if (expr.op === "||") return truthy(left) ? left : this.evaluate(expr.right, scope)
        return left === undefined || left === null ? this.evaluate(expr.right, scope) : left
      }
      case "conditional":
        return truthy(this.evaluate(expr.test, scope)) ? this.evaluate(expr.consequent, scope) : this.evaluate(expr.alternate, scope)
      case "object": {
        const obj = new Obj()
        for (const entry of expr.entries) {
          if ("spread" in entry) {
            const spread = this.evaluate(entry.spread, scope)
            if (spread instanceof Obj) {
              for (const [key, value] of spread.fields) {
                this.budget.step()
                obj.fields.set(key, value)
              }
            }
          } else obj.fields.set(entry.key, this.evaluate(entry.value, scope))
        }
        return obj
      }
      case "array":
        return expr.items.map((item) => this.evaluate(item, scope))
      case "function":
        return new UserFunction(expr.name, expr.params, expr.body, scope)
      case "jsx": {
        const type: Value = expr.tag === undefined ? fragment : this.evaluate(expr.tag, scope)
        const props = new Obj()
        for (const attribute of expr.attributes) {
          if ("spread" in attribute) {
            const spread = this.evaluate(attribute.spread, scope)
            if (spread instanceof Obj) {
              for (const [key, value] of spread.fields) {
                this.budget.step()
                props.fields.set(key, value)
              }
            }
          } else props.fields.set(attribute.name, this.evaluate(attribute.value, scope))
        }
        props.fields.delete("key")
        props.fields.delete("ref")
        if (expr.children.length === 1) props.fields.set("children", this.evaluate(expr.children[0]!, scope))
        else if (expr.children.length > 1) props.fields.set("children", expr.children.map((child) => this.evaluate(child, scope)))
        return new Element(type, props)
      }
    }
    return undefined
  }
}

/** React's `Fragment`: renders its children. */
export const fragment = new Builtin("Fragment", ([props]) => (props instanceof Obj ? props.get("children") : undefined))
