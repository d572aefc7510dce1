/**
 * What the renderer offers a template: the React e-mail components (`@react-email/components`
 * 0.1.x, the version the service renders with) as the HTML elements they produce (tables for
 * `Container`/`Section`/`Row`, `<a>` for `Button`/`Link`, `<p>` for `Text`, their default inline
 * styles), `@stackframe/emails` (`Subject`, `NotificationCategory` render nothing and carry values;
 * `ProjectLogo`, `Logo`, `FullLogo`), arktype's `type`, and React's `Fragment`. Then the two
 * outputs of a rendering: HTML as React writes it (escaping, `className` → `class`, `style`
 * objects → CSS text, void elements) and the plain text of the e-mail.
 *
 * Differences from the service: `Tailwind` inlines a subset of Tailwind's utilities
 * (`TailwindSubset.ts`; others stay as classes), `Button` leaves out the Outlook (`mso`) conditional comments, and adjacent texts
 * are not separated by `<!-- -->`. Components the emulator does not render (`Markdown`,
 * `CodeBlock`, `Font`…) fail with a message saying so.
 *
 * @module
 */
import { Evaluator, fragment } from "./Evaluator.js"
import { inlineTailwind } from "./TailwindSubset.js"
import { runtimeFailure } from "./RenderFailure.js"
import type { Budget } from "./Values.js"
import { Builtin, Element, isCallable, Obj, toText, typeOf, UserFunction } from "./Values.js"
import type { StackComponent, Value } from "./Values.js"

// ---- building elements ----

const h = (type: string, props: Readonly<Record<string, Value>>, children?: Value): Element => {
  const obj = Obj.of(props)
  if (children !== undefined) obj.fields.set("children", children)
  return new Element(type, obj)
}

const propsOf = (args: ReadonlyArray<Value>): Obj => (args[0] instanceof Obj ? args[0] : new Obj())

/** The props of a component without the ones it consumes, merged with its defaults (props win). */
const rest = (props: Obj, consumed: ReadonlyArray<string>): Record<string, Value> => {
  const out: Record<string, Value> = {}
  for (const [key, value] of props.fields) if (!consumed.includes(key)) out[key] = value
  return out
}

/** `style` with the component's defaults first, the template's style after. */
const style = (defaults: Readonly<Record<string, Value>>, given: Value): Obj => {
  const merged = Obj.of(defaults)
  if (given instanceof Obj) { for (const [key, value] of given.fields) merged.fields.set(key, value) }
  return merged
}

const component = (name: string, render: (props: Obj) => Value) => new Builtin(name, (args) => render(propsOf(args)))

const presentationTable = { align: "center", width: "100%", border: 0, cellPadding: 0, cellSpacing: 0, role: "presentation" }

const reactEmailComponents: ReadonlyArray<Builtin> = [
  component("Html", (props) => h("html", { lang: "en", dir: "ltr", ...rest(props, ["children"]) }, props.get("children"))),
  component("Head", (props) =>
    h("head", rest(props, ["children"]), [
      h("meta", { content: "text/html; charset=UTF-8", httpEquiv: "Content-Type" }),
      h("meta", { name: "x-apple-disable-message-reformatting" }),
      props.get("children")
    ])),
  component("Body", (props) => h("body", rest(props, ["children"]), props.get("children"))),
  component("Container", (props) =>
    h(
      "table",
      { ...presentationTable, ...rest(props, ["children", "style"]), style: style({ maxWidth: "37.5em" }, props.get("style")) },
      h("tbody", {}, h("tr", { style: Obj.of({ width: "100%" }) }, h("td", {}, props.get("children"))))
    )),
  component("Section", (props) =>
    h(
      "table",
      { ...presentationTable, ...rest(props, ["children"]) },
      h("tbody", {}, h("tr", {}, h("td", {}, props.get("children"))))
    )),
  component("Row", (props) =>
    h(
      "table",
      { ...presentationTable, ...rest(props, ["children"]) },
      h("tbody", { style: Obj.of({ width: "100%" }) }, h("tr", { style: Obj.of({ width: "100%" }) }, props.get("children")))
    )),
  component("Column", (props) => h("td", { "data-id": "__react-email-column", ...rest(props, ["children"]) }, props.get("children"))),
  component(
    "Text",
    (props) =>
      h(
        "p",
        { ...rest(props, ["children", "style"]), style: style({ fontSize: "14px", lineHeight: "24px", margin: "16px 0" }, props.get("style")) },
        props.get("children")
      )
  ),
  component("Heading", (props) => {
    const as = props.get("as")
    const tag = typeof as === "string" && /^h[1-6]$/.test(as) ? as : "h1"
    return h(tag, rest(props, ["children", "as", "m", "mx", "my", "mt", "mr", "mb", "ml"]), props.get("children"))
  }),
  component("Button", (props) =>
    h(
      "a",
      {
        ...rest(props, ["children", "style", "target"]),
        style: style({ lineHeight: "100%", textDecoration: "none", display: "inline-block", maxWidth: "100%" }, props.get("style")),
        target: props.get("target") ?? "_blank"
      },
      h("span", { style: Obj.of({ maxWidth: "100%", display: "inline-block", lineHeight: "120%" }) }, props.get("children"))
    )),
  component("Link", (props) =>
    h(
      "a",
      {
        ...rest(props, ["children", "style", "target"]),
        style: style({ color: "#067df7", textDecorationLine: "none" }, props.get("style")),
        target: props.get("target") ?? "_blank"
      },
      props.get("children")
    )),
  component(
    "Hr",
    (props) => h("hr", { ...rest(props, ["style"]), style: style({ width: "100%", border: "none", borderTop: "1px solid #eaeaea" }, props.get("style")) })
  ),
  component(
    "Img",
    (props) =>
      h("img", { ...rest(props, ["style"]), style: style({ display: "block", outline: "none", border: "none", textDecoration: "none" }, props.get("style")) })
  ),
  component("Preview", (props) =>
    h(
      "div",
      { style: Obj.of({ display: "none", overflow: "hidden", lineHeight: "1px", opacity: 0, maxHeight: 0, maxWidth: 0 }), "data-skip-in-text": "true" },
      props.get("children")
    ))
]

/** Components of `@react-email/components` the emulator does not render (the service does). */
const notRendered = ["CodeBlock", "CodeInline", "Font", "Markdown"]

/** `<Tailwind>`: its children, with their utility classes inlined as CSS (`TailwindSubset.ts`). */
const tailwind = component("Tailwind", (props) => props.get("children") ?? null)

const reactEmailModule: ReadonlyMap<string, Value> = new Map<string, Value>([
  ...reactEmailComponents.map((builtin) => [builtin.name, builtin] as const),
  ["Tailwind", tailwind],
  ...notRendered.map((name) =>
    [
      name,
      component(name, () => {
        throw runtimeFailure(
          `The emulator does not render <${name}> from @react-email/components (it renders Html, Head, Body, Tailwind, Container, Section, Row, Column, Text, Heading, Button, Link, Hr, Img and Preview)`
        )
      })
    ] as const
  )
])

// ---- @stackframe/emails ----

const marker = (name: StackComponent) => new Builtin(name, () => null, name)

const img = (src: Value, alt: string, className: string) =>
  h("img", { src, alt, className, style: Obj.of({ display: "block", outline: "none", border: "none", textDecoration: "none" }) })

const logo = component("Logo", (props) => h("div", { className: "flex gap-2 items-center" }, img(props.get("logoUrl"), "Logo", "h-8")))
const fullLogo = component("FullLogo", (props) => img(props.get("logoFullUrl"), "Full Logo", "h-16"))

const projectLogo = component("ProjectLogo", (props) => {
  const mode = props.get("mode") ?? "light"
  const data = props.get("data")
  const field = (key: string) => (data instanceof Obj ? data.get(key) : undefined)
  const present = (value: Value) => value !== undefined && value !== null && value !== "" && value !== false && value !== 0
  if (mode === "dark" && present(field("logoFullDarkModeUrl"))) return new Element(fullLogo, Obj.of({ logoFullUrl: field("logoFullDarkModeUrl") }))
  if (mode === "dark" && present(field("logoDarkModeUrl"))) return new Element(logo, Obj.of({ logoUrl: field("logoDarkModeUrl") }))
  if (mode === "light" && present(field("logoFullUrl"))) return new Element(fullLogo, Obj.of({ logoFullUrl: field("logoFullUrl") }))
  if (mode === "light" && present(field("logoUrl"))) return new Element(logo, Obj.of({ logoUrl: field("logoUrl") }))
  return null
})

const stackEmailsModule: ReadonlyMap<string, Value> = new Map<string, Value>([
  ["Subject", marker("Subject")],
  ["NotificationCategory", marker("NotificationCategory")],
  ["Logo", logo],
  ["FullLogo", fullLogo],
  ["ProjectLogo", projectLogo]
])

// ---- arktype ----

type FieldType = "string" | "number" | "boolean" | "null" | "undefined" | "unknown"

/** An arktype object schema: the declared keys and their types. */
const schemaOf = (definition: Value): Builtin => {
  if (!(definition instanceof Obj)) throw runtimeFailure("The emulator renders variablesSchema = type({ … }) with an object of type strings")
  const fields: Array<{ key: string; types: ReadonlyArray<FieldType>; optional: boolean; text: string }> = []
  for (const [rawKey, rawType] of definition.fields) {
    if (typeof rawType !== "string") {
      throw runtimeFailure(`The emulator renders variablesSchema with type strings only ("string", "number?"…), not for key ${rawKey}`)
    }
    const keyOptional = rawKey.endsWith("?")
    const typeOptional = rawType.trim().endsWith("?")
    const text = rawType.trim().replace(/\?$/, "").trim()
    const types = text.split("|").map((part) => part.trim())
    for (const type of types) {
      if (!["string", "number", "boolean", "null", "undefined", "unknown"].includes(type)) throw runtimeFailure(`'${type}' is unresolvable`)
    }
    fields.push({ key: keyOptional ? rawKey.slice(0, -1) : rawKey, types: types as ReadonlyArray<FieldType>, optional: keyOptional || typeOptional, text })
  }
  const describe = (types: ReadonlyArray<FieldType>) =>
    types.map((type) => (type === "string" ? "a string" : type === "number" ? "a number" : type)).join(" or ")
  const kindOf = (value: Value): FieldType | "object" =>
    value === null
      ? "null"
      : value === undefined
      ? "undefined"
      : typeof value === "string"
      ? "string"
      : typeof value === "number"
      ? "number"
      : typeof value === "boolean"
      ? "boolean"
      : "object"
  return new Builtin("variablesSchema", ([input]) => {
    const given = input instanceof Obj ? input : new Obj()
    const out = new Obj()
    const problems: Array<string> = []
    for (const field of fields) {
      if (!given.fields.has(field.key)) {
        if (!field.optional) problems.push(`${field.key} must be ${describe(field.types)} (was missing)`)
        continue
      }
      const value = given.get(field.key)
      const kind = kindOf(value)
      if (!field.types.includes("unknown") && !field.types.includes(kind as FieldType)) {
        problems.push(`${field.key} must be ${describe(field.types)} (was ${kind === "string" ? JSON.stringify(value) : kind})`)
      } else out.fields.set(field.key, value)
    }
    if (problems.length > 0) throw runtimeFailure(problems.join("\n"))
    return out
  })
}

const arktypeModule: ReadonlyMap<string, Value> = new Map<string, Value>([["type", new Builtin("type", ([definition]) => schemaOf(definition))]])

const reactNamespace = Obj.of({ Fragment: fragment })
reactNamespace.frozen = true
const reactModule: ReadonlyMap<string, Value> = new Map<string, Value>([
  ["default", reactNamespace],
  ["Fragment", fragment]
])

/** The modules a template or theme may import (those the service's sandbox provides). */
export const resolveModule = (from: string): ReadonlyMap<string, Value> | undefined =>
  from === "@react-email/components"
    ? reactEmailModule
    : from === "@stackframe/emails"
    ? stackEmailsModule
    : from === "arktype"
    ? arktypeModule
    : from === "react"
    ? reactModule
    : undefined

// ---- rendering ----

/** A rendered node: text, or an HTML element with its attributes (already written) and children. */
type Node = string | { readonly tag: string; readonly attributes: string; readonly children: ReadonlyArray<Node>; readonly raw: string | undefined }

const voidElements = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"])

const attributeNames: Readonly<Record<string, string>> = {
  className: "class",
  htmlFor: "for",
  httpEquiv: "http-equiv",
  acceptCharset: "accept-charset",
  cellPadding: "cellpadding",
  cellSpacing: "cellspacing",
  charSet: "charset",
  colSpan: "colspan",
  rowSpan: "rowspan",
  tabIndex: "tabindex",
  bgColor: "bgcolor",
  vAlign: "valign",
  crossOrigin: "crossorigin",
  referrerPolicy: "referrerpolicy",
  srcSet: "srcset",
  dateTime: "datetime"
}

const unitless = new Set([
  "opacity",
  "zIndex",
  "fontWeight",
  "lineHeight",
  "flex",
  "flexGrow",
  "flexShrink",
  "order",
  "zoom",
  "orphans",
  "widows",
  "columnCount",
  "fillOpacity",
  "strokeOpacity"
])

/** Escapes text and attribute values as React does. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "\"" ? "&quot;" : "&#x27;"))

const validAttributeName = /^[A-Za-z_:][A-Za-z0-9_:.-]*$/
const validTagName = /^[A-Za-z][A-Za-z0-9-]*$/

/** CSS text of declarations (later ones replace earlier ones of the same property, in place). */
const cssText = (first: ReadonlyArray<readonly [string, string]>, style: Value, budget: Budget): string => {
  const declarations = new Map<string, string>(first)
  if (style instanceof Obj) {
    for (const [key, value] of style.fields) {
      budget.step()
      if (value === undefined || value === null || typeof value === "boolean" || value === "") continue
      const name = key.startsWith("--") ? key : key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`).replace(/^ms-/, "-ms-")
      if (!/^-?-?[a-z][a-z0-9-]*$/.test(name)) continue
      declarations.set(name, typeof value === "number" && value !== 0 && !unitless.has(key) ? `${value}px` : toText(value, budget).trim())
    }
  }
  return [...declarations].map(([name, value]) => `${name}:${value}`).join(";")
}

const writeAttributes = (props: Obj, budget: Budget, underTailwind: boolean): string => {
  const className = props.get("className")
  const inlined = underTailwind && typeof className === "string" ? inlineTailwind(className) : undefined
  let out = ""
  let styleWritten = false
  const writeStyle = () => {
    styleWritten = true
    const css = cssText(inlined?.css ?? [], props.get("style"), budget)
    if (css !== "") out += ` style="${escapeHtml(css)}"`
  }
  for (const [key, value] of props.fields) {
    budget.step()
    if (key === "children" || key === "dangerouslySetInnerHTML" || key === "suppressHydrationWarning" || key === "suppressContentEditableWarning") continue
    if (!validAttributeName.test(key) || /^on[A-Z]/.test(key)) continue
    const name = attributeNames[key] ?? key
    if (key === "className" && inlined !== undefined) {
      if (inlined.remaining !== "") out += ` class="${escapeHtml(inlined.remaining)}"`
      if (!props.fields.has("style")) writeStyle()
      continue
    }
    if (key === "style") {
      writeStyle()
      continue
    }
    if (value === undefined || value === null || isCallable(value)) continue
    if (typeof value === "boolean") {
      if (value && !name.startsWith("data-") && !name.startsWith("aria-")) out += ` ${name}=""`
      else if (name.startsWith("data-") || name.startsWith("aria-")) out += ` ${name}="${String(value)}"`
      continue
    }
    out += ` ${name}="${escapeHtml(toText(value, budget))}"`
  }
  if (!styleWritten && inlined !== undefined) writeStyle()
  return out
}

/** Turns a value into rendered nodes, calling components on the way (React's rendering). */
export const expand = (value: Value, evaluator: Evaluator, into: Array<Node> = [], underTailwind = false): Array<Node> => {
  const budget = evaluator.budget
  budget.enter()
  try {
    if (value === undefined || value === null || typeof value === "boolean") return into
    if (typeof value === "string" || typeof value === "number") {
      into.push(String(value))
      return into
    }
    if (Array.isArray(value)) {
      for (const item of value as ReadonlyArray<Value>) expand(item, evaluator, into, underTailwind)
      return into
    }
    if (value instanceof Element) {
      const type = value.type
      if (typeof type === "string") {
        if (!validTagName.test(type)) throw runtimeFailure(`Invalid tag: ${type}`)
        const inner = value.props.get("dangerouslySetInnerHTML")
        const raw = inner instanceof Obj && typeof inner.get("__html") === "string" ? (inner.get("__html") as string) : undefined
        into.push({
          tag: type,
          attributes: writeAttributes(value.props, budget, underTailwind),
          children: raw === undefined ? expand(value.props.get("children"), evaluator, [], underTailwind) : [],
          raw
        })
        return into
      }
      if (type instanceof Builtin || type instanceof UserFunction) {
        return expand(evaluator.call(type, [value.props], type.name ?? "Component"), evaluator, into, underTailwind || type === tailwind)
      }
      throw runtimeFailure(
        `Element type is invalid: expected a string (for built-in components) or a class/function (for composite components) but got: ${typeOf(type)}.` +
          (type === undefined
            ? " You likely forgot to export your component from the file it's defined in, or you might have mixed up default and named imports."
            : "")
      )
    }
    if (value instanceof Obj) {
      throw runtimeFailure(
        "Objects are not valid as a React child (found: object with keys {" + [...value.fields.keys()].join(", ") +
          "}). If you meant to render a collection of children, use an array instead."
      )
    }
    // functions render nothing (React warns)
    return into
  } finally {
    budget.leave()
  }
}

/** Text written in parts, its whole length held within the budget's output limit. */
const output = (budget: Budget) => {
  const parts: Array<string> = []
  let length = 0
  const push = (text: string): void => {
    length += text.length
    budget.within(length)
    parts.push(text)
  }
  return { parts, push }
}

/** The HTML of rendered nodes. */
export const writeHtml = (nodes: ReadonlyArray<Node>, budget: Budget): string => {
  const { parts, push } = output(budget)
  const write = (node: Node) => {
    budget.step()
    if (typeof node === "string") return push(escapeHtml(node))
    if (voidElements.has(node.tag)) return push(`<${node.tag}${node.attributes}/>`)
    push(`<${node.tag}${node.attributes}>`)
    if (node.raw !== undefined) push(node.raw)
    else for (const child of node.children) write(child)
    push(`</${node.tag}>`)
  }
  for (const node of nodes) write(node)
  return parts.join("")
}

const blockTags = new Set([
  "p",
  "div",
  "table",
  "tbody",
  "tr",
  "section",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "ul",
  "ol",
  "li",
  "body",
  "html",
  "hr",
  "br",
  "blockquote",
  "pre"
])
const skippedTags = new Set(["head", "style", "script", "img", "title"])

const attributeValue = (attributes: string, name: string): string | undefined => {
  const match = new RegExp(` ${name}="([^"]*)"`).exec(attributes)
  return match === null
    ? undefined
    : match[1]!.replace(/&quot;/g, "\"").replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
}

/**
 * Raw HTML (`dangerouslySetInnerHTML`) with each tag (`<` to the next `>`) replaced by a space,
 * in one pass: what `replace(/<[^>]*>/g, " ")` gives, without that regex's scan to the end of
 * the text from every `<` that has no `>` after it (quadratic: a template of a few hundred bytes
 * building 100 000 `<` held the emulator for seconds).
 */
export const stripTags = (html: string): string => {
  const parts: Array<string> = []
  let from = 0
  for (;;) {
    const open = html.indexOf("<", from)
    if (open < 0) break
    const close = html.indexOf(">", open + 1)
    // no `>` after this `<`: none after any later `<` either, the rest is text
    if (close < 0) break
    parts.push(html.slice(from, open), " ")
    from = close + 1
  }
  parts.push(html.slice(from))
  return parts.join("")
}

/** The plain text of rendered nodes (as the service's plain-text rendering: links as "label url", headings upper-case). */
export const writeText = (nodes: ReadonlyArray<Node>, budget: Budget): string => {
  const { parts, push } = output(budget)
  const write = (node: Node, upper: boolean) => {
    budget.step()
    if (typeof node === "string") return push(upper ? node.toUpperCase() : node)
    if (skippedTags.has(node.tag) || attributeValue(node.attributes, "data-skip-in-text") === "true") return
    const block = blockTags.has(node.tag)
    if (block) push("\n")
    const heading = /^h[1-6]$/.test(node.tag)
    if (node.raw !== undefined) push(stripTags(node.raw))
    for (const child of node.children) write(child, upper || heading)
    if (node.tag === "a") {
      const href = attributeValue(node.attributes, "href")
      if (href !== undefined && href !== "" && !href.startsWith("#")) push(` ${href}`)
    }
    if (block) push("\n")
  }
  for (const node of nodes) write(node, false)
  return parts
    .join("")
    .split("\n")
    .map((line) => line.replace(/[ \t\u00a0]+/g, " ").trim())
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
}

/**
 * The value of a `@stackframe/emails` marker (`Subject`, `NotificationCategory`) in the element a
 * template returns, as the service reads it: the template is called, its element tree (children
 * props, not what components render) searched; none → undefined, two or more, or a value that is
 * not a string → an error.
 */
export const findComponentValue = (template: Element, target: StackComponent, evaluator: Evaluator): string | undefined => {
  const matches: Array<Element> = []
  const traverse = (node: Value) => {
    evaluator.budget.step()
    if (!(node instanceof Element)) return
    if (node.type instanceof Builtin && node.type.stackComponent === target) matches.push(node)
    const children = node.props.get("children")
    if (Array.isArray(children)) (children as ReadonlyArray<Value>).forEach(traverse)
    else if (children !== undefined && children !== null && children !== false && children !== "" && children !== 0) traverse(children)
  }
  if (!isCallable(template.type)) throw runtimeFailure("element.type is not a function")
  traverse(evaluator.call(template.type, [template.props], "element.type"))
  if (matches.length === 0) return undefined
  if (matches.length !== 1) throw runtimeFailure(`Expected exactly one occurrence of component "${target}", found ${matches.length}.`)
  const value = matches[0]!.props.get("value")
  if (typeof value !== "string") throw runtimeFailure(`The "value" prop of "${target}" must be a string.`)
  return value
}
