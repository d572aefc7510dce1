/**
 * `/handler/account-settings`: profile, e-mails, password, two-factor authentication, passkeys,
 * active sessions, API keys and account deletion, each section on its own hooks.
 */
import { Data, Effect, Exit, Redacted } from "effect"
import { generate } from "lean-qr"
import { toSvgPath } from "lean-qr/extras/svg"
import { useMemo, useState } from "react"
import type { FormEvent } from "react"
import { ContactChannels, EmailVerification, Mfa, Passkeys, Password, QueryCache, Sessions, Totp, UserApiKeys, Users } from "stack-auth-effect"
import type { User } from "stack-auth-effect"
import { useApiKeys, useContactChannels, useSessions, useShownMutation } from "../runtime.js"
import { navigate } from "../router.js"
import { ApiKeyList } from "../ApiKeyList.js"
import { checkEmail, checkNewPassword } from "../messages.js"
import { Alert, Badge, Button, ConfirmByTyping, ErrorMessage, Field, Loading, Section } from "../ui.js"

type CurrentUser = User.CurrentUser

const valueOf = (form: HTMLFormElement, name: string): string => {
  const element = form.elements.namedItem(name)
  return element instanceof HTMLInputElement ? element.value : ""
}

const formatDate = (date: Date | undefined): string => date === undefined ? "—" : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })

const sections = [
  { id: "profile", label: "Profile" },
  { id: "emails", label: "E-mails" },
  { id: "password", label: "Password" },
  { id: "mfa", label: "Two-factor auth" },
  { id: "passkeys", label: "Passkeys" },
  { id: "sessions", label: "Active sessions" },
  { id: "api-keys", label: "API keys" },
  { id: "danger", label: "Delete account" }
] as const

/** The settings page of the signed-in user. */
export const AccountSettingsPage = (props: { readonly user: CurrentUser }) => (
  <div className="settings">
    <nav className="settings-nav" aria-label="Settings sections">
      {sections.map((section) => (
        <a key={section.id} href={`#${section.id}`}>
          {section.label}
        </a>
      ))}
    </nav>
    <div className="settings-body">
      <h1>Account settings</h1>
      <p className="muted">Manage how you sign in and what this app knows about you.</p>
      <ProfileSection user={props.user} />
      <EmailsSection />
      <PasswordSection user={props.user} />
      <MfaSection user={props.user} />
      <PasskeysSection user={props.user} />
      <SessionsSection />
      <ApiKeysSection />
      <DeleteAccountSection user={props.user} />
    </div>
  </div>
)

// -----------------------------------------------------------------------------------------------

const ProfileSection = (props: { readonly user: CurrentUser }) => {
  const [saved, setSaved] = useState(false)
  const update = useShownMutation((displayName: string) =>
    Users.updateCurrent({ displayName: displayName.trim() === "" ? null : displayName.trim() }).pipe(Effect.andThen(Effect.sync(() => setSaved(true))))
  )
  const [resent, setResent] = useState(false)
  const resend = useShownMutation(() => EmailVerification.sendVerificationEmail(props.user).pipe(Effect.andThen(Effect.sync(() => setResent(true)))))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setSaved(false)
    void update.run(valueOf(event.currentTarget, "displayName"))
  }
  return (
    <Section id="profile" title="Profile" description="How you appear to others.">
      <form className="stack" onSubmit={submit} aria-label="Profile" noValidate>
        <Field label="Display name" name="displayName" defaultValue={props.user.displayName ?? ""} maxLength={256} />
        <div className="row">
          <Button type="submit" pending={update.pending}>
            Save profile
          </Button>
          {saved && !update.pending ? <span className="muted small">Saved.</span> : null}
        </div>
        <ErrorMessage error={update.error} />
      </form>
      <div className="divider">primary e-mail</div>
      <div className="spread">
        <span>
          {props.user.primaryEmail ?? <span className="muted">No e-mail</span>}{" "}
          {props.user.primaryEmail === null ? null : props.user.primaryEmailVerified ? <Badge tone="green">Verified</Badge> : <Badge>Not verified</Badge>}
        </span>
        {props.user.primaryEmail !== null && !props.user.primaryEmailVerified ?
          (
            <Button variant="secondary" small pending={resend.pending} onClick={() => void resend.run()}>
              Send verification e-mail
            </Button>
          ) :
          null}
      </div>
      {resent && !resend.pending && resend.error === undefined ?
        (
          <Alert kind="success">
            We sent a verification link to <strong>{props.user.primaryEmail}</strong>.
          </Alert>
        ) :
        null}
      <ErrorMessage error={resend.error} />
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const EmailsSection = () => {
  const channels = useContactChannels()
  const [emailError, setEmailError] = useState<string | undefined>(undefined)
  const [verificationSentTo, setVerificationSentTo] = useState<string | null>(null)
  const add = useShownMutation((value: string) => ContactChannels.create({ value, usedForAuth: false }))
  const makePrimary = useShownMutation((id: string) => ContactChannels.update(id, { isPrimary: true }))
  const verify = useShownMutation((channel: { readonly id: string; readonly value: string }) =>
    ContactChannels.sendVerificationCode(channel.id).pipe(Effect.andThen(Effect.sync(() => setVerificationSentTo(channel.value))))
  )
  const remove = useShownMutation((id: string) => ContactChannels.delete(id))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const value = valueOf(form, "email").trim()
    const error = checkEmail(value)
    setEmailError(error)
    if (error !== undefined) return
    // the address stays in the field until it is added (an error keeps it for correcting)
    void add.run(value).then((exit) => {
      if (Exit.isSuccess(exit)) form.reset()
    })
  }
  return (
    <Section id="emails" title="E-mails" description="Addresses where we can reach you. The primary one receives account e-mails.">
      {channels.status === "success" ?
        (
          <ul className="list" aria-label="E-mail addresses">
            {channels.data.map((channel) => (
              <li key={channel.id}>
                <span className="item-text">
                  <span className="break">{channel.value}</span> {channel.isPrimary ? <Badge tone="brand">Primary</Badge> : null}{" "}
                  {channel.isVerified ? <Badge tone="green">Verified</Badge> : <Badge>Not verified</Badge>}
                </span>
                <span className="row actions">
                  {channel.isVerified ? null : (
                    <Button
                      variant="ghost"
                      small
                      pending={verify.pending}
                      aria-label={`Verify ${channel.value}`}
                      onClick={() => void verify.run({ id: channel.id, value: channel.value })}
                    >
                      Verify
                    </Button>
                  )}
                  {channel.isPrimary ?
                    null :
                    (
                      <Button variant="ghost" small aria-label={`Make primary ${channel.value}`} onClick={() => void makePrimary.run(channel.id)}>
                        Make primary
                      </Button>
                    )}
                  {channel.isPrimary ? null : (
                    <Button variant="ghost" small aria-label={`Remove ${channel.value}`} onClick={() => void remove.run(channel.id)}>
                      Remove
                    </Button>
                  )}
                </span>
              </li>
            ))}
          </ul>
        ) :
        channels.status === "error" ?
        <ErrorMessage error={channels.error} /> :
        <Loading label="Loading e-mails…" />}
      {verificationSentTo === null || verify.pending || verify.error !== undefined ? null : (
        <Alert kind="success">
          We sent a verification link to <strong>{verificationSentTo}</strong>. Open it to confirm the address.
        </Alert>
      )}
      <ErrorMessage error={add.error ?? makePrimary.error ?? verify.error ?? remove.error} />
      <form className="row inline-form" onSubmit={submit} aria-label="Add an e-mail" noValidate>
        <div className="grow">
          <Field label="Add an e-mail" name="email" type="email" autoComplete="email" required error={emailError} />
        </div>
        <Button type="submit" variant="secondary" pending={add.pending}>
          Add
        </Button>
      </form>
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

/** On this screen `PasswordConfirmationMismatch` is the service's answer to a wrong current password. */
const passwordMessages = {
  PasswordConfirmationMismatch: "Your current password is not correct.",
  EmailPasswordMismatch: "Your current password is not correct."
} as const

const PasswordSection = (props: { readonly user: CurrentUser }) => {
  const [done, setDone] = useState(false)
  const [newPasswordError, setNewPasswordError] = useState<string | undefined>(undefined)
  const change = useShownMutation((input: { readonly oldPassword: string; readonly newPassword: string }) =>
    Effect.gen(function* () {
      if (props.user.hasPassword) yield* Password.updatePassword(input)
      else yield* Password.setPassword({ password: input.newPassword })
      setDone(true)
    })
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    setDone(false)
    const newPassword = valueOf(form, "newPassword")
    const error = checkNewPassword(newPassword)
    setNewPasswordError(error)
    if (error !== undefined) return
    // the fields are emptied only once the password is changed: a mistake keeps them for correcting
    void change.run({ oldPassword: valueOf(form, "oldPassword"), newPassword }).then((exit) => {
      if (Exit.isSuccess(exit)) form.reset()
    })
  }
  return (
    <Section
      id="password"
      title="Password"
      description={props.user.hasPassword ? "Change the password you sign in with." : "You have no password yet: set one to sign in with your e-mail."}
    >
      <form className="stack" onSubmit={submit} aria-label="Password" noValidate>
        {props.user.hasPassword ? <Field label="Current password" name="oldPassword" type="password" autoComplete="current-password" required /> : null}
        <Field
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          hint="At least 8 characters."
          error={newPasswordError}
        />
        <ErrorMessage error={change.error} overrides={passwordMessages} />
        {done ? <Alert kind="success">Your password was updated. Your other devices were signed out.</Alert> : null}
        <div>
          <Button type="submit" pending={change.pending}>
            {props.user.hasPassword ? "Change password" : "Set password"}
          </Button>
        </div>
      </form>
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

/** The code typed while setting up TOTP does not match the new secret. */
class TotpSetupCodeMismatch extends Data.TaggedError("TotpSetupCodeMismatch")<{ readonly message: string }> {}

/** The otpauth:// link as a QR code, drawn here (an SVG path from `lean-qr`): the secret never leaves the page. */
const QrCode = (props: { readonly text: string; readonly label: string }) => {
  const code = useMemo(() => generate(props.text), [props.text])
  const path = useMemo(() => toSvgPath(code), [code])
  return (
    <svg className="qr" viewBox={`-2 -2 ${code.size + 4} ${code.size + 4}`} role="img" aria-label={props.label} data-testid="totp-qr">
      <rect x={-2} y={-2} width={code.size + 4} height={code.size + 4} fill="#fff" />
      <path d={path} fill="#000" shapeRendering="crispEdges" />
    </svg>
  )
}

const MfaSection = (props: { readonly user: CurrentUser }) => {
  const [secret, setSecret] = useState<Uint8Array | null>(null)
  const enable = useShownMutation((input: { readonly secret: Uint8Array; readonly code: string }) =>
    Effect.gen(function* () {
      const ok = yield* Totp.verify(input.secret, input.code.trim())
      if (!ok) {
        return yield* Effect.fail(new TotpSetupCodeMismatch({ message: "That code does not match. Check the time on your device and try again." }))
      }
      yield* Users.updateCurrent({ totpSecretBase64: Totp.toBase64(input.secret) })
      yield* Effect.sync(() => setSecret(null))
    })
  )
  const disable = useShownMutation(() => Mfa.disableTotp())
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (secret !== null) void enable.run({ secret, code: valueOf(event.currentTarget, "code") })
  }
  const uri = secret === null ? "" : Totp.otpauthUri({ secret, issuer: Mfa.defaultIssuer, accountName: props.user.primaryEmail ?? props.user.id })
  return (
    <Section id="mfa" title="Two-factor authentication" description="Ask for a code from an authenticator app when signing in.">
      {props.user.isMultiFactorRequired ?
        (
          <div className="spread">
            <span>
              <Badge tone="green">On</Badge> Signing in asks for an authenticator code.
            </span>
            <Button variant="secondary" pending={disable.pending} onClick={() => void disable.run()}>
              Turn off two-factor authentication
            </Button>
          </div>
        ) :
        secret === null ?
        (
          <div className="spread">
            <span>
              <Badge>Off</Badge> Only your password (or another sign-in method) is needed.
            </span>
            <Button
              variant="secondary"
              onClick={() => {
                enable.reset()
                setSecret(Totp.randomSecret())
              }}
            >
              Set up an authenticator app
            </Button>
          </div>
        ) :
        (
          <form className="stack" onSubmit={submit} aria-label="Set up two-factor authentication" noValidate>
            <p>Scan this code with your authenticator app (Google Authenticator, 1Password, …), or type the key below, then enter the code it shows.</p>
            <QrCode text={uri} label="QR code of the authenticator setup link" />
            <div className="field">
              <span className="hint">Setup key</span>
              <div className="secret" data-testid="totp-secret">
                {Totp.toBase32(secret)}
              </div>
            </div>
            <details>
              <summary className="small muted">Show the otpauth:// link</summary>
              <div className="secret small" data-testid="totp-uri">
                {uri}
              </div>
            </details>
            <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required inputClassName="code-input" />
            <ErrorMessage error={enable.error} />
            <div className="row">
              <Button type="submit" pending={enable.pending}>
                Turn on two-factor authentication
              </Button>
              <Button variant="ghost" onClick={() => setSecret(null)}>
                Cancel
              </Button>
            </div>
          </form>
        )}
      <ErrorMessage error={disable.error} />
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const PasskeysSection = (props: { readonly user: CurrentUser }) => {
  const [registered, setRegistered] = useState(false)
  const register = useShownMutation(() =>
    Passkeys.register().pipe(
      // registering turns passkey sign-in on for the user: read the user again
      Effect.andThen(QueryCache.invalidate(Users.currentUserCacheKey)),
      Effect.andThen(Effect.sync(() => setRegistered(true)))
    )
  )
  const remove = useShownMutation(() => Users.updateCurrent({ passkeyAuthEnabled: false }).pipe(Effect.andThen(Effect.sync(() => setRegistered(false)))))
  return (
    <Section id="passkeys" title="Passkeys" description="Sign in with your device's fingerprint, face or screen lock instead of a password.">
      <div className="spread">
        <span>
          {props.user.passkeyAuthEnabled ? <Badge tone="green">Passkey registered</Badge> : <Badge>No passkey</Badge>}
        </span>
        <span className="row">
          <Button variant="secondary" pending={register.pending} onClick={() => void register.run()}>
            {props.user.passkeyAuthEnabled ? "Replace passkey" : "Register a passkey"}
          </Button>
          {props.user.passkeyAuthEnabled ?
            (
              <Button variant="ghost" pending={remove.pending} onClick={() => void remove.run()}>
                Turn off passkey sign-in
              </Button>
            ) :
            null}
        </span>
      </div>
      {registered && !register.pending ? <Alert kind="success">Your passkey is ready: use it on the sign-in page.</Alert> : null}
      <ErrorMessage error={register.error ?? remove.error} />
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const SessionsSection = () => {
  const sessions = useSessions()
  const revoke = useShownMutation((id: string) => Sessions.revoke(id))
  return (
    <Section id="sessions" title="Active sessions" description="Devices where you are signed in.">
      {sessions.status === "success" ?
        (
          <ul className="list" aria-label="Active sessions">
            {sessions.data.map((session) => (
              <li key={session.id}>
                <span>
                  {session.isCurrentSession ? <Badge tone="brand">This device</Badge> : <Badge>Other device</Badge>}{" "}
                  <span className="small muted">
                    signed in {formatDate(session.createdAt)} · last used {formatDate(session.lastUsedAt)}
                    {session.geoInfo?.cityName === undefined || session.geoInfo.cityName === null ? "" : ` · ${session.geoInfo.cityName}`}
                  </span>
                </span>
                {session.isCurrentSession ? null : (
                  <Button variant="ghost" small onClick={() => void revoke.run(session.id)}>
                    Revoke
                  </Button>
                )}
              </li>
            ))}
          </ul>
        ) :
        sessions.status === "error" ?
        <ErrorMessage error={sessions.error} /> :
        <Loading label="Loading sessions…" />}
      <ErrorMessage error={revoke.error} />
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const ApiKeysSection = () => {
  const keys = useApiKeys()
  const [created, setCreated] = useState<{ readonly id: string; readonly description: string; readonly value: string } | null>(null)
  const create = useShownMutation((description: string) =>
    UserApiKeys.create({ description, expiresAt: null }).pipe(
      Effect.tap((key) => Effect.sync(() => setCreated({ id: key.id, description: key.description, value: Redacted.value(key.value) })))
    )
  )
  // the "copy it now" banner goes with its key
  const revoke = useShownMutation((id: string) =>
    UserApiKeys.revoke(id).pipe(Effect.andThen(Effect.sync(() => setCreated((shown) => (shown?.id === id ? null : shown)))))
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    void create.run(valueOf(form, "description").trim()).then((exit) => {
      if (Exit.isSuccess(exit)) form.reset()
    })
  }
  return (
    <Section id="api-keys" title="API keys" description="Keys that let your scripts act as you. A key is shown once, when it is created.">
      {created === null ? null : (
        <Alert kind="success">
          New key “{created.description}” — copy it now, it will not be shown again:
          <div className="secret" data-testid="new-api-key">
            {created.value}
          </div>
        </Alert>
      )}
      <ApiKeyList keys={keys} label="API keys" emptyText="No API keys yet." loadingText="Loading API keys…" onRevoke={(id) => void revoke.run(id)} />
      <ErrorMessage error={create.error ?? revoke.error} />
      <form className="row inline-form" onSubmit={submit} aria-label="Create an API key">
        <div className="grow">
          <Field label="Key description" name="description" required placeholder="e.g. CI deploys" />
        </div>
        <Button type="submit" variant="secondary" pending={create.pending}>
          Create key
        </Button>
      </form>
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

/**
 * Deleting the account takes two steps: "Delete my account…" opens the confirmation, where the
 * user types their e-mail address (or DELETE without one) before the final button works.
 */
const DeleteAccountSection = (props: { readonly user: CurrentUser }) => {
  const expected = props.user.primaryEmail ?? "DELETE"
  const remove = useShownMutation(() => Users.deleteCurrent().pipe(Effect.andThen(Effect.sync(() => navigate("/", { replace: true })))))
  return (
    <Section id="danger" title="Delete account" description="Deletes your account and everything in it. This cannot be undone.">
      <ConfirmByTyping
        openLabel="Delete my account…"
        formLabel="Confirm account deletion"
        className="stack danger-zone"
        warning="Your profile, e-mails, passkeys, sessions, API keys and team memberships will be deleted for good."
        fieldLabel={`Type ${props.user.primaryEmail === null ? "DELETE" : "your e-mail address"} to confirm`}
        fieldName="confirmation"
        expected={expected}
        matches={(typed) => typed.trim().toLowerCase() === expected.toLowerCase()}
        confirmLabel="Delete my account for good"
        cancelLabel="Keep my account"
        action={remove}
      />
    </Section>
  )
}
