/** The app's small UI kit: cards, fields, buttons with a pending state, alerts, loading. */
import { useId, useState } from "react"
import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from "react"
import { describeError } from "./messages.js"
import type { MessageOverrides } from "./messages.js"

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

/**
 * A labelled input. `error` (a sentence) marks it invalid and is announced; `hint` describes it.
 * Both are tied to the input with `aria-describedby`.
 */
export const Field = (
  props: InputHTMLAttributes<HTMLInputElement> & {
    readonly label: string
    readonly hint?: ReactNode
    readonly error?: string | undefined
    readonly inputClassName?: string
  }
) => {
  const { label, hint, error, inputClassName, ...input } = props
  const id = useId()
  const describedBy = [hint === undefined ? "" : `${id}-hint`, error === undefined ? "" : `${id}-error`].filter((part) => part !== "").join(" ")
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className={inputClassName}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={describedBy === "" ? undefined : describedBy}
        {...input}
      />
      {hint === undefined ? null : (
        <span className="hint" id={`${id}-hint`}>
          {hint}
        </span>
      )}
      {error === undefined ? null : (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
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
  const classes = [
    "button",
    variant === undefined || variant === "primary" ? "" : variant,
    block === true ? "block" : "",
    small === true ? "small" : "",
    className ?? ""
  ]
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

/**
 * A typed error shown as a sentence for people (./messages.ts), with its tag in a small details
 * line for developers. Renders nothing without an error. `overrides` reword some tags on one
 * screen.
 */
export const ErrorMessage = (props: { readonly error: unknown; readonly overrides?: MessageOverrides }) => {
  if (props.error === undefined || props.error === null) return null
  const { text, tag } = describeError(props.error, props.overrides)
  return (
    <Alert kind="error">
      <span className="alert-text">{text}</span>
      {tag === undefined ? null : (
        <span className="error-details">
          Details: <code>{tag}</code>
        </span>
      )}
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

/**
 * A destructive action in two steps: `openLabel` opens a form where `expected` must be typed
 * (`matches` decides) before the final button runs `action`; `cancelLabel` closes it and forgets
 * the typed text and the action's error. The form is named `formLabel` for assistive technology.
 */
export const ConfirmByTyping = (props: {
  readonly openLabel: ReactNode
  readonly formLabel: string
  readonly fieldLabel: string
  readonly fieldName: string
  readonly expected: string
  readonly matches: (typed: string) => boolean
  readonly confirmLabel: string
  readonly cancelLabel: string
  readonly warning?: ReactNode
  readonly className?: string
  readonly action: { readonly run: () => unknown; readonly reset: () => void; readonly pending: boolean; readonly error: unknown }
}) => {
  const [confirming, setConfirming] = useState(false)
  const [typed, setTyped] = useState("")
  const matches = props.matches(typed)
  if (!confirming) {
    return (
      <div>
        <Button variant="danger" onClick={() => setConfirming(true)}>
          {props.openLabel}
        </Button>
      </div>
    )
  }
  return (
    <form
      className={props.className ?? "stack"}
      aria-label={props.formLabel}
      onSubmit={(event) => {
        event.preventDefault()
        if (matches) void props.action.run()
      }}
    >
      {props.warning === undefined ? null : <Alert kind="warning">{props.warning}</Alert>}
      <Field
        label={props.fieldLabel}
        name={props.fieldName}
        autoComplete="off"
        spellCheck={false}
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        hint={<code className="break">{props.expected}</code>}
      />
      <ErrorMessage error={props.action.error} />
      <div className="row">
        <Button type="submit" variant="danger" disabled={!matches} pending={props.action.pending}>
          {props.confirmLabel}
        </Button>
        <Button
          variant="ghost"
          onClick={() => {
            setConfirming(false)
            setTyped("")
            props.action.reset()
          }}
        >
          {props.cancelLabel}
        </Button>
      </div>
    </form>
  )
}
