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

// Messages that are only the issue's kind: the default hooks would quote the input.
const formatter = SchemaIssue.makeFormatterStandardSchemaV1({
  leafHook: (issue) => leafKinds[issue._tag],
  checkHook: () => "Refinement"
})

/**
 * `path: Kind` for every issue of `error` (`user.primary_email_verified: Type`), deduplicated and
 * joined with `", "`; `root` names an issue of the whole value.
 */
export const describeIssues = (error: Schema.SchemaError, root: string): string => {
  const issues = formatter(error.issue).issues.map((issue) => {
    const path = (issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment))
    return `${path.length === 0 ? root : path.join(".")}: ${issue.message}`
  })
  return [...new Set(issues)].join(", ")
}
