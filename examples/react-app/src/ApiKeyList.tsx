/** The list of a user's or a team's API keys: last four characters, validity, and a revoke button. */
import { ApiKey } from "stack-auth-effect"
import { Badge, Button, ErrorMessage, Loading } from "./ui.js"

const validity = ApiKey.validity

/** What the list needs of a key (user and team keys both have it). */
interface ListedKey {
  readonly id: string
  readonly description: string
  readonly value: { readonly lastFour: string }
  readonly expiresAt?: Date | undefined
  readonly manuallyRevokedAt?: Date | undefined
}

/** The keys as a hook gives them, with the texts of the list and what revoking does. */
export interface ApiKeyListProps {
  readonly keys: {
    readonly status: "loading" | "success" | "error"
    readonly data: ReadonlyArray<ListedKey> | undefined
    readonly error: unknown
  }
  readonly label: string
  readonly emptyText: string
  readonly loadingText: string
  readonly onRevoke: (id: string) => void
}

/** Valid keys can be revoked; expired and revoked ones say so. */
export const ApiKeyList = (props: ApiKeyListProps) => {
  const { keys } = props
  if (keys.status === "error") return <ErrorMessage error={keys.error} />
  if (keys.status === "loading") return <Loading label={props.loadingText} />
  const data = keys.data ?? []
  if (data.length === 0) return <p className="muted small">{props.emptyText}</p>
  const now = new Date()
  return (
    <ul className="list" aria-label={props.label}>
      {data.map((key) => {
        const state = validity(key, now)
        return (
          <li key={key.id}>
            <span className="item-text">
              <span className="break">{key.description}</span> <code className="muted">…{key.value.lastFour}</code>{" "}
              {state === "valid" ? <Badge tone="green">Active</Badge> : <Badge tone="red">{state === "expired" ? "Expired" : "Revoked"}</Badge>}
            </span>
            {state === "valid" ?
              (
                <Button variant="ghost" small aria-label={`Revoke ${key.description}`} onClick={() => props.onRevoke(key.id)}>
                  Revoke
                </Button>
              ) :
              null}
          </li>
        )
      })}
    </ul>
  )
}
