/**
 * Access levels as services. A server-only call requires {@link ServerAccess} and an admin call
 * {@link AdminAccess} in its requirements, so an app that never provided the secret key cannot
 * compile that call. Client calls need only the transport (publishable key from `StackConfig`).
 *
 * @module
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { UserNotSignedIn } from "./Errors.js"

/** The access levels of the service (`x-stack-access-type`). */
export type AccessLevel = "client" | "server" | "admin"

/** Server access: the secret server key. */
export interface ServerAccessShape {
  readonly secretServerKey: Redacted.Redacted<string>
}

/** Server access service (secret server key). */
export class ServerAccess extends Context.Service<ServerAccess, ServerAccessShape>()("stack-auth-effect/ServerAccess") {}

/** How an admin request authenticates: the super secret admin key, or an owner's admin access token. */
export type AdminCredential =
  | { readonly _tag: "AdminKey"; readonly superSecretAdminKey: Redacted.Redacted<string> }
  | { readonly _tag: "AdminAccessToken"; readonly accessToken: Redacted.Redacted<string> }

/** Admin access: yields the credential for each request (a token source may refresh). */
export interface AdminAccessShape {
  readonly credential: Effect.Effect<AdminCredential, UserNotSignedIn>
}

/** Admin access service (super secret admin key or admin access token). */
export class AdminAccess extends Context.Service<AdminAccess, AdminAccessShape>()("stack-auth-effect/AdminAccess") {}

/** A required secret setting is missing; `setting` names the environment variable or option. */
export class MissingAccessKey extends Data.TaggedError("MissingAccessKey")<{
  readonly setting: string
  readonly message: string
}> {}

const redact = (key: string | Redacted.Redacted<string>) => (Redacted.isRedacted(key) ? key : Redacted.make(key))

/** Server access from a secret server key. */
export const layerServer = (secretServerKey: string | Redacted.Redacted<string>): Layer.Layer<ServerAccess, MissingAccessKey> =>
  Layer.effect(
    ServerAccess,
    Redacted.isRedacted(secretServerKey) || secretServerKey.length > 0
      ? Effect.succeed({ secretServerKey: redact(secretServerKey) })
      : Effect.fail(new MissingAccessKey({ setting: "secretServerKey", message: "No secret server key provided." }))
  )

/** Admin access with the super secret admin key. */
export const layerAdminKey = (superSecretAdminKey: string | Redacted.Redacted<string>): Layer.Layer<AdminAccess, MissingAccessKey> =>
  Layer.effect(
    AdminAccess,
    Redacted.isRedacted(superSecretAdminKey) || superSecretAdminKey.length > 0
      ? Effect.succeed({
        credential: Effect.succeed({ _tag: "AdminKey" as const, superSecretAdminKey: redact(superSecretAdminKey) })
      })
      : Effect.fail(new MissingAccessKey({ setting: "superSecretAdminKey", message: "No super secret admin key provided." }))
  )

/**
 * Admin access with an admin access token: the access token of a project owner signed in on the
 * `internal` project. `accessToken` is read for every request, so a session-backed source stays fresh.
 */
export const layerAdminAccessToken = (
  accessToken: Effect.Effect<Redacted.Redacted<string>, UserNotSignedIn>
): Layer.Layer<AdminAccess> =>
  Layer.succeed(AdminAccess, {
    credential: Effect.map(accessToken, (token) => ({ _tag: "AdminAccessToken" as const, accessToken: token }))
  })

const secret = (name: string, message: string) =>
  Config.option(Config.Redacted(name)).pipe(
    Effect.mapError((error) => new MissingAccessKey({ setting: name, message: String(error) })),
    Effect.flatMap((value) =>
      Option.isSome(value) && Redacted.value(value.value).length > 0
        ? Effect.succeed(value.value)
        : Effect.fail(new MissingAccessKey({ setting: name, message }))
    )
  )

/** Server access from `STACK_SECRET_SERVER_KEY`. */
export const layerServerConfig: Layer.Layer<ServerAccess, MissingAccessKey> = Layer.effect(
  ServerAccess,
  Effect.map(
    secret(
      "STACK_SECRET_SERVER_KEY",
      "No secret server key provided. Please copy your key from the Stack Auth dashboard and put it in the STACK_SECRET_SERVER_KEY environment variable."
    ),
    (secretServerKey) => ({ secretServerKey })
  )
)

/** Admin access from `STACK_SUPER_SECRET_ADMIN_KEY`. */
export const layerAdminConfig: Layer.Layer<AdminAccess, MissingAccessKey> = Layer.effect(
  AdminAccess,
  Effect.map(
    secret(
      "STACK_SUPER_SECRET_ADMIN_KEY",
      "No super secret admin key provided. Please copy your key from the Stack Auth dashboard and put it in the STACK_SUPER_SECRET_ADMIN_KEY environment variable."
    ),
    (superSecretAdminKey) => ({ credential: Effect.succeed({ _tag: "AdminKey" as const, superSecretAdminKey }) })
  )
)
