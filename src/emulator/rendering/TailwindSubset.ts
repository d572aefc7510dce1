/**
 * What React e-mail's `<Tailwind>` does to the elements inside it, for the utility classes the
 * service's default templates and themes use: each class it knows becomes inline CSS (before the
 * element's own `style`), the classes it does not know stay in `class`. A subset: spacing,
 * typography, colours of the default palette used there, arbitrary values (`text-[20px]`,
 * `bg-[#f0f0f0]`), borders, radii, opacity, display and flex alignment. Responsive and state
 * variants (`sm:`, `hover:`) are left as classes.
 *
 * @module
 */

/** Tailwind's colours the default templates and themes use (and a few neighbours). */
const colors: Readonly<Record<string, string>> = {
  black: "rgb(0,0,0)",
  white: "rgb(255,255,255)",
  transparent: "transparent",
  "gray-100": "rgb(243,244,246)",
  "gray-200": "rgb(229,231,235)",
  "gray-300": "rgb(209,213,219)",
  "gray-500": "rgb(107,114,128)",
  "gray-600": "rgb(75,85,99)",
  "gray-700": "rgb(55,65,81)",
  "gray-900": "rgb(17,24,39)",
  "blue-500": "rgb(59,130,246)",
  "blue-600": "rgb(37,99,235)",
  "blue-700": "rgb(29,78,216)",
  "red-600": "rgb(220,38,38)",
  "green-600": "rgb(22,163,74)"
}

const fontSizes: Readonly<Record<string, readonly [string, string]>> = {
  xs: ["0.75rem", "1rem"],
  sm: ["0.875rem", "1.25rem"],
  base: ["1rem", "1.5rem"],
  lg: ["1.125rem", "1.75rem"],
  xl: ["1.25rem", "1.75rem"],
  "2xl": ["1.5rem", "2rem"],
  "3xl": ["1.875rem", "2.25rem"],
  "4xl": ["2.25rem", "2.5rem"]
}

const radii: Readonly<Record<string, string>> = {
  "": "0.25rem",
  none: "0px",
  sm: "0.125rem",
  md: "0.375rem",
  lg: "0.5rem",
  xl: "0.75rem",
  "2xl": "1rem",
  "3xl": "1.5rem",
  full: "9999px"
}
const lineHeights: Readonly<Record<string, string>> = { none: "1", tight: "1.25", snug: "1.375", normal: "1.5", relaxed: "1.625", loose: "2" }
const trackings: Readonly<Record<string, string>> = { tighter: "-0.05em", tight: "-0.025em", normal: "0em", wide: "0.025em", wider: "0.05em", widest: "0.1em" }
const maxWidths: Readonly<Record<string, string>> = {
  xs: "20rem",
  sm: "24rem",
  md: "28rem",
  lg: "32rem",
  xl: "36rem",
  "2xl": "42rem",
  full: "100%",
  none: "none"
}
const weights: Readonly<Record<string, string>> = {
  thin: "100",
  light: "300",
  normal: "400",
  medium: "500",
  semibold: "600",
  bold: "700",
  extrabold: "800",
  black: "900"
}
const fonts: Readonly<Record<string, string>> = {
  sans: "ui-sans-serif, system-ui, sans-serif, \"Apple Color Emoji\", \"Segoe UI Emoji\", \"Segoe UI Symbol\", \"Noto Color Emoji\"",
  serif: "ui-serif, Georgia, Cambria, \"Times New Roman\", Times, serif",
  mono: "ui-monospace, SFMono-Regular, Menlo, Monaco, Consolas, \"Liberation Mono\", \"Courier New\", monospace"
}
const keywords: Readonly<Record<string, ReadonlyArray<readonly [string, string]>>> = {
  block: [["display", "block"]],
  "inline-block": [["display", "inline-block"]],
  inline: [["display", "inline"]],
  flex: [["display", "flex"]],
  hidden: [["display", "none"]],
  "justify-center": [["justify-content", "center"]],
  "justify-between": [["justify-content", "space-between"]],
  "items-center": [["align-items", "center"]],
  "text-center": [["text-align", "center"]],
  "text-left": [["text-align", "left"]],
  "text-right": [["text-align", "right"]],
  underline: [["text-decoration-line", "underline"]],
  "no-underline": [["text-decoration-line", "none"]],
  italic: [["font-style", "italic"]],
  border: [["border-width", "1px"]],
  "border-0": [["border-width", "0px"]],
  "border-none": [["border-style", "none"]],
  "w-full": [["width", "100%"]],
  "h-full": [["height", "100%"]],
  "min-h-full": [["min-height", "100%"]],
  "mx-auto": [["margin-left", "auto"], ["margin-right", "auto"]],
  "shadow-sm": [["box-shadow", "0 1px 2px 0 rgb(0,0,0,0.05)"]],
  shadow: [["box-shadow", "0 1px 3px 0 rgb(0,0,0,0.1), 0 1px 2px -1px rgb(0,0,0,0.1)"]]
}

const arbitrary = (value: string): string | undefined => {
  const match = /^\[([^\]]+)\]$/.exec(value)
  return match === null ? undefined : match[1]!.replace(/_/g, " ")
}

const spacing = (value: string): string | undefined =>
  arbitrary(value) ??
    (value === "0" ? "0px" : value === "px" ? "1px" : value === "auto" ? "auto" : /^\d+(\.5)?$/.test(value) ? `${Number(value) * 0.25}rem` : undefined)

const isColor = (value: string) => /^(#|rgb|hsl)/.test(value)

const spacingProperties: Readonly<Record<string, ReadonlyArray<string>>> = {
  m: ["margin"],
  mx: ["margin-left", "margin-right"],
  my: ["margin-top", "margin-bottom"],
  mt: ["margin-top"],
  mr: ["margin-right"],
  mb: ["margin-bottom"],
  ml: ["margin-left"],
  p: ["padding"],
  px: ["padding-left", "padding-right"],
  py: ["padding-top", "padding-bottom"],
  pt: ["padding-top"],
  pr: ["padding-right"],
  pb: ["padding-bottom"],
  pl: ["padding-left"],
  gap: ["gap"],
  w: ["width"],
  h: ["height"]
}

/** The CSS declarations of one utility class, or undefined when the subset does not know it. */
const declarations = (utility: string): ReadonlyArray<readonly [string, string]> | undefined => {
  const keyword = keywords[utility]
  if (keyword !== undefined) return keyword
  const dash = utility.indexOf("-")
  if (dash === -1) return utility === "rounded" ? [["border-radius", radii[""]!]] : undefined
  const prefix = utility.slice(0, dash)
  const value = utility.slice(dash + 1)
  const properties = spacingProperties[prefix]
  if (properties !== undefined) {
    const size = spacing(value)
    return size === undefined ? undefined : properties.map((property) => [property, size] as const)
  }
  switch (prefix) {
    case "text": {
      const custom = arbitrary(value)
      if (custom !== undefined) return [[isColor(custom) ? "color" : "font-size", custom]]
      const size = fontSizes[value]
      if (size !== undefined) return [["font-size", size[0]], ["line-height", size[1]]]
      const color = colors[value]
      return color === undefined ? undefined : [["color", color]]
    }
    case "bg": {
      const color = arbitrary(value) ?? colors[value]
      return color === undefined ? undefined : [["background-color", color]]
    }
    case "font": {
      const weight = weights[value]
      if (weight !== undefined) return [["font-weight", weight]]
      const family = fonts[value]
      return family === undefined ? undefined : [["font-family", family]]
    }
    case "opacity":
      return /^\d+$/.test(value) ? [["opacity", String(Number(value) / 100)]] : undefined
    case "rounded": {
      const radius = arbitrary(value) ?? radii[value]
      return radius === undefined ? undefined : [["border-radius", radius]]
    }
    case "leading": {
      const height = arbitrary(value) ?? lineHeights[value] ?? spacing(value)
      return height === undefined ? undefined : [["line-height", height]]
    }
    case "tracking": {
      const letter = arbitrary(value) ?? trackings[value]
      return letter === undefined ? undefined : [["letter-spacing", letter]]
    }
    case "max": {
      if (!value.startsWith("w-")) return undefined
      const width = arbitrary(value.slice(2)) ?? maxWidths[value.slice(2)]
      return width === undefined ? undefined : [["max-width", width]]
    }
    case "border": {
      const color = arbitrary(value) ?? colors[value]
      return color !== undefined && isColor(color) ? [["border-color", color]] : undefined
    }
    default:
      return undefined
  }
}

/** A class list under `<Tailwind>`: the inline CSS of the classes the subset knows, the others. */
export const inlineTailwind = (className: string): { readonly css: ReadonlyArray<readonly [string, string]>; readonly remaining: string } => {
  const css: Array<readonly [string, string]> = []
  const remaining: Array<string> = []
  for (const utility of className.split(/\s+/)) {
    if (utility === "") continue
    const found = declarations(utility)
    if (found === undefined) remaining.push(utility)
    else css.push(...found)
  }
  return { css, remaining: remaining.join(" ") }
}
