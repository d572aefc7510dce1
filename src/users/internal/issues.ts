/**
 * Where a decoded value is wrong and how, never the value itself: the text of `Hydration`'s and
 * `Metadata`'s errors, whose inputs hold tokens and personal data (their messages reach logs and
 * spans). Not part of the public surface (`package.json` blocks `internal/`).
 *
 * @module
 */
import type * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"

// The kind of each leaf issue, in the words the SDK's messages have always used.
const leafKinds: { readonly [K in SchemaIssue.Leaf["_tag"]]: string } = {
  InvalidType: "Type",
  InvalidValue: "Transformation",
  MissingKey: "Missing",
  UnexpectedKey: "Unexpected",
  Forbidden: "Forbidden",
  OneOf: "Type"
}

// Every issue of the tree as `[path, kind]`. Walked here rather than through a `SchemaIssue`
// formatter: their messages may quote the input (an empty `AnyOf` ignores the hooks), and the
// input is exactly what these messages must never show.
const leaves = (issue: SchemaIssue.Issue, path: ReadonlyArray<PropertyKey>): ReadonlyArray<readonly [ReadonlyArray<PropertyKey>, string]> => {
  switch (issue._tag) {
    case "Filter":
      return [[path, "Refinement"]]
    case "Encoding":
      return leaves(issue.issue, path)
    case "Pointer":
      return leaves(issue.issue, [...path, ...issue.path])
    case "Composite":
      return issue.issues.flatMap((inner) => leaves(inner, path))
    case "AnyOf":
      return issue.issues.length === 0 ? [[path, "Type"]] : issue.issues.flatMap((inner) => leaves(inner, path))
    default:
      return [[path, leafKinds[issue._tag]]]
  }
}

/**
 * `path: Kind` for every issue of `error` (`user.primary_email_verified: Type`), deduplicated and
 * joined with `", "`; `root` names an issue of the whole value.
 */
export const describeIssues = (error: Schema.SchemaError, root: string): string => {
  const issues = leaves(error.issue, []).map(([path, kind]) => `${path.length === 0 ? root : path.map(String).join(".")}: ${kind}`)
  return [...new Set(issues)].join(", ")
}
