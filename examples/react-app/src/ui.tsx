/** The app's small UI kit: cards, fields, buttons with a pending state, alerts, loading. */
import { useId } from "react"
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from "react"

/** A card centred on the page, for the sign-in style pages. */
export const AuthCard = (props: { readonly title: string; readonly subtitle?: ReactNode; readonly children?: ReactNode }) => (
  <div className="auth-shell">
    <section className="card auth-card" aria-labelledby="page-title">
      <h1 id="page-title">{props.title}</h1>
      {props.subtitle === undefined ? null : <p className="subtitle">{props.subtitle}</p>}
      {props.children}
    </section>
  </div>
)

/** A card with a heading and a line of explanation. */
export const Section = (props: {
  readonly id?: string
  readonly title: string
  readonly description?: ReactNode
  readonly children?: ReactNode
}) => (
  <section className="card section" id={props.id} aria-label={props.title}>
    <h2>{props.title}</h2>
    {props.description === undefined ? null : <p className="muted">{props.description}</p>}
    {props.children}
  </section>
)

/** A labelled input. */
export const Field = (
  props: InputHTMLAttributes<HTMLInputElement> & { readonly label: string; readonly hint?: ReactNode; readonly inputClassName?: string }
) => {
  const { label, hint, inputClassName, ...input } = props
  const id = useId()
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} className={inputClassName} {...input} />
      {hint === undefined ? null : <span className="hint">{hint}</span>}
    </div>
  )
}

/** A button that shows a spinner and is disabled while `pending`. */
export const Button = (
  props: ButtonHTMLAttributes<HTMLButtonElement> & {
    readonly pending?: boolean
    readonly variant?: "primary" | "secondary" | "danger" | "ghost"
    readonly block?: boolean
    readonly small?: boolean
  }
) => {
  const { pending, variant, block, small, className, children, disabled, type, ...rest } = props
  const classes = ["button", variant === undefined || variant === "primary" ? "" : variant, block === true ? "block" : "", small === true ? "small" : "", className ?? ""]
    .filter((name) => name !== "")
    .join(" ")
  return (
    <button type={type ?? "button"} className={classes} disabled={disabled === true || pending === true} aria-busy={pending === true} {...rest}>
      {pending === true ? <span className="spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  )
}

/** A coloured message box. */
export const Alert = (props: { readonly kind: "error" | "success" | "info" | "warning"; readonly children?: ReactNode }) => (
  <div className={`alert ${props.kind}`} role={props.kind === "error" ? "alert" : "status"}>
    {props.children}
  </div>
)

/** The text of any failure: typed errors carry a `message` (the service's wording). */
export const errorMessage = (error: unknown): string => {
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" && error.message !== "") {
    return error.message
  }
  if (typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string") return error._tag
  return String(error)
}

/** The tag of a typed error (`EmailPasswordMismatch`…), if it has one. */
export const errorTag = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string" ? error._tag : undefined

/** A typed error shown by its message (and its tag, small). Renders nothing without an error. */
export const ErrorMessage = (props: { readonly error: unknown }) => {
  if (props.error === undefined || props.error === null) return null
  const tag = errorTag(props.error)
  return (
    <Alert kind="error">
      {errorMessage(props.error)}
      {tag === undefined ? null : <span className="error-tag">{tag}</span>}
    </Alert>
  )
}

/** A spinner with a line of text. */
export const Loading = (props: { readonly label?: string }) => (
  <div className="loading" role="status" aria-live="polite">
    <span className="spinner" aria-hidden="true" />
    <span>{props.label ?? "Loading…"}</span>
  </div>
)

/** A small pill. */
export const Badge = (props: { readonly tone?: "green" | "brand" | "red" | undefined; readonly children?: ReactNode }) => (
  <span className={`badge ${props.tone ?? ""}`}>{props.children}</span>
)

/** Initials for an avatar. */
export const initials = (name: string | null, email: string | null): string => {
  const source = (name ?? "").trim() || (email ?? "").trim() || "?"
  const parts = source.split(/[\s@._-]+/).filter((part) => part !== "")
  return ((parts[0]?.[0] ?? "?") + (parts.length > 1 ? (parts[1]?.[0] ?? "") : "")).toUpperCase()
}
