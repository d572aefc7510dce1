/**
 * The browser's side of a passkey ceremony (WebAuthn), as a service: whether the browser can do
 * WebAuthn, the page's host name (the relying-party id), and the two ceremonies — creating a
 * credential (`navigator.credentials.create`) and getting an assertion
 * (`navigator.credentials.get`). `Passkeys.ts` drives it between the service's calls.
 *
 * {@link layerBrowser} runs the ceremonies with `@simplewebauthn/browser`, imported lazily (on the
 * first use), so code that never runs a ceremony — a Node backend, the emulator — never loads it
 * or touches `window`. Tests provide their own layer (a software authenticator).
 *
 * The JSON shapes are those of the WebAuthn Level 3 `toJSON()` forms
 * (`PublicKeyCredentialCreationOptionsJSON`, `RegistrationResponseJSON`, …): their well-known
 * members are checked, every other member is kept as it is (PROTOCOL.md §3.0 "Passkey / WebAuthn
 * payloads").
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"

/** Members the schemas below do not name: kept, whatever they hold. */
const OtherMembers = Schema.Record(Schema.String, Schema.Unknown)

/** A struct of the named members that keeps every other member as it is. */
const open = <const Fields extends Schema.Struct.Fields>(fields: Fields) => Schema.StructWithRest(Schema.Struct(fields), [OtherMembers])

/** A credential named in `excludeCredentials` / `allowCredentials`. */
export const CredentialDescriptor = open({
  id: Schema.String,
  type: Schema.Literal("public-key"),
  transports: Schema.optional(Schema.Array(Schema.String))
})

/** `options_json` of `initiate-passkey-registration`: a `PublicKeyCredentialCreationOptionsJSON`. */
export const CreationOptions = open({
  challenge: Schema.String,
  rp: open({ name: Schema.String, id: Schema.optional(Schema.String) }),
  user: open({ id: Schema.String, name: Schema.String, displayName: Schema.String }),
  pubKeyCredParams: Schema.Array(open({ alg: Schema.Number, type: Schema.String })),
  timeout: Schema.optional(Schema.Number),
  attestation: Schema.optional(Schema.String),
  excludeCredentials: Schema.optional(Schema.Array(CredentialDescriptor)),
  authenticatorSelection: Schema.optional(OtherMembers),
  extensions: Schema.optional(OtherMembers)
})

/** Creation options in the domain (same shape as the wire). */
export type CreationOptions = typeof CreationOptions.Type

/** `options_json` of `initiate-passkey-authentication`: a `PublicKeyCredentialRequestOptionsJSON`. */
export const RequestOptions = open({
  challenge: Schema.String,
  rpId: Schema.optional(Schema.String),
  allowCredentials: Schema.optional(Schema.Array(CredentialDescriptor)),
  timeout: Schema.optional(Schema.Number),
  userVerification: Schema.optional(Schema.String)
})

/** Request options in the domain (same shape as the wire). */
export type RequestOptions = typeof RequestOptions.Type

/** The `credential` of `POST /auth/passkey/register`: a `RegistrationResponseJSON`. */
export const RegistrationCredential = open({
  id: Schema.String,
  rawId: Schema.String,
  type: Schema.Literal("public-key"),
  response: open({ clientDataJSON: Schema.String, attestationObject: Schema.String }),
  clientExtensionResults: OtherMembers,
  authenticatorAttachment: Schema.optional(Schema.String)
})

/** A new credential in the domain (same shape as the wire). */
export type RegistrationCredential = typeof RegistrationCredential.Type

/** The `authentication_response` of `POST /auth/passkey/sign-in`: an `AuthenticationResponseJSON`. */
export const AuthenticationCredential = open({
  id: Schema.String,
  rawId: Schema.String,
  type: Schema.Literal("public-key"),
  response: open({
    clientDataJSON: Schema.String,
    authenticatorData: Schema.String,
    signature: Schema.String,
    userHandle: Schema.optional(Schema.String)
  }),
  clientExtensionResults: OtherMembers,
  authenticatorAttachment: Schema.optional(Schema.String)
})

/** An assertion in the domain (same shape as the wire). */
export type AuthenticationCredential = typeof AuthenticationCredential.Type

/**
 * The ceremony `@simplewebauthn/browser` codes (`WebAuthnError.code`) the SDK maps to its errors, plus the
 * pass-through code it uses for `NotAllowedError` (cancelled by the user, timed out).
 */
export const ceremonyErrorCodes = [
  "ERROR_CEREMONY_ABORTED",
  "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT",
  "ERROR_AUTO_REGISTER_USER_VERIFICATION_FAILURE",
  "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT",
  "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED",
  "ERROR_MALFORMED_PUBKEYCREDPARAMS",
  "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG",
  "ERROR_INVALID_DOMAIN",
  "ERROR_INVALID_RP_ID",
  "ERROR_INVALID_USER_ID_LENGTH",
  "ERROR_AUTHENTICATOR_GENERAL_ERROR",
  "ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY"
] as const

/** A ceremony code (`WebAuthnError.code` of `@simplewebauthn/browser`). */
export type CeremonyErrorCode = (typeof ceremonyErrorCodes)[number]

/**
 * A ceremony failed. `code` is the WebAuthn error code when the failure was identified (a
 * `WebAuthnError` of `@simplewebauthn/browser`), `undefined` for anything else (an unexpected
 * browser error, an answer that is not a credential).
 */
export class WebAuthnCeremonyError extends Data.TaggedError("WebAuthnCeremonyError")<{
  readonly code: string | undefined
  readonly message: string
  readonly cause?: unknown
}> {}

/** The browser cannot run WebAuthn ceremonies (no `PublicKeyCredential`: an old browser, or not a browser). */
export class WebAuthnNotSupported extends Data.TaggedError("WebAuthnNotSupported")<{ readonly message: string }> {
  /** The error with `@simplewebauthn/browser`'s wording. */
  static readonly make = () => new WebAuthnNotSupported({ message: "WebAuthn is not supported in this browser" })
}

/** What the passkey flows need from the browser. */
export interface WebAuthnBrowserService {
  /** Whether WebAuthn ceremonies can run here. */
  readonly isSupported: Effect.Effect<boolean>
  /** The host name of the current page (the relying-party id); `""` when there is no page. */
  readonly hostname: Effect.Effect<string>
  /** Creates a credential (registration ceremony) with the given options. */
  readonly register: (options: CreationOptions) => Effect.Effect<RegistrationCredential, WebAuthnCeremonyError>
  /** Signs the challenge with a credential the user picks (authentication ceremony). */
  readonly authenticate: (options: RequestOptions) => Effect.Effect<AuthenticationCredential, WebAuthnCeremonyError>
}

/** The browser's WebAuthn, as a service. */
export class WebAuthnBrowser extends Context.Service<WebAuthnBrowser, WebAuthnBrowserService>()("stack-auth-effect/WebAuthnBrowser") {}

type BrowserModule = typeof import("@simplewebauthn/browser")

const loadBrowserModule: Effect.Effect<BrowserModule, WebAuthnCeremonyError> = Effect.tryPromise({
  try: () => import("@simplewebauthn/browser"),
  catch: (cause) => new WebAuthnCeremonyError({ code: undefined, message: "Could not load @simplewebauthn/browser", cause })
})

const ceremonyError = (module: BrowserModule, error: unknown): WebAuthnCeremonyError =>
  error instanceof module.WebAuthnError
    ? new WebAuthnCeremonyError({ code: error.code, message: error.message, cause: error })
    : new WebAuthnCeremonyError({
      code: undefined,
      message: error instanceof Error ? error.message : String(error),
      cause: error
    })

const decodeAnswer = <A, I>(schema: Schema.Codec<A, I>, answer: unknown): Effect.Effect<A, WebAuthnCeremonyError> =>
  Schema.decodeUnknownEffect(schema)(answer).pipe(
    Effect.mapError(
      (cause) => new WebAuthnCeremonyError({ code: undefined, message: "The browser answered with something that is not a credential", cause })
    )
  )

/**
 * The real browser: `browserSupportsWebAuthn()`, `location.hostname`, `startRegistration` and
 * `startAuthentication` of `@simplewebauthn/browser` (loaded on first use). A `WebAuthnError` of the
 * library keeps its `code`; anything else becomes a {@link WebAuthnCeremonyError} without code.
 */
export const layerBrowser: Layer.Layer<WebAuthnBrowser> = Layer.succeed(WebAuthnBrowser, {
  isSupported: loadBrowserModule.pipe(
    Effect.map((module) => module.browserSupportsWebAuthn()),
    Effect.orElseSucceed(() => false)
  ),
  hostname: Effect.sync(() => (globalThis as { location?: { hostname?: string } }).location?.hostname ?? ""),
  register: (options) =>
    Effect.flatMap(loadBrowserModule, (module) =>
      Effect.tryPromise({
        // the schema checked the members the library reads; the rest is passed through untouched
        try: () => module.startRegistration({ optionsJSON: options as unknown as Parameters<BrowserModule["startRegistration"]>[0]["optionsJSON"] }),
        catch: (error) => ceremonyError(module, error)
      })).pipe(Effect.flatMap((answer) => decodeAnswer(RegistrationCredential, answer))),
  authenticate: (options) =>
    Effect.flatMap(loadBrowserModule, (module) =>
      Effect.tryPromise({
        try: () => module.startAuthentication({ optionsJSON: options as unknown as Parameters<BrowserModule["startAuthentication"]>[0]["optionsJSON"] }),
        catch: (error) => ceremonyError(module, error)
      })).pipe(Effect.flatMap((answer) => decodeAnswer(AuthenticationCredential, answer)))
})

/**
 * Whether a host name can be a relying-party id: `localhost`, or a dotted domain name (ASCII or
 * punycode labels, a top-level label of two letters or more) — `@simplewebauthn/browser`'s rule
 * (SPEC.md §5). IP addresses are not.
 */
export const isValidDomain = (hostname: string): boolean =>
  hostname === "localhost" || /^((xn--[a-z0-9-]+|[a-z0-9]+(-[a-z0-9]+)*)\.)+([a-z]{2,}|xn--[a-z0-9-]+)$/i.test(hostname)
