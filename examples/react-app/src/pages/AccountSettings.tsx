/**
 * `/handler/account-settings`: profile, e-mails, password, two-factor authentication, passkeys,
 * active sessions, API keys and account deletion, each section on its own hooks.
 */
import { Data, Effect, Redacted } from "effect"
import { useState } from "react"
import type { FormEvent } from "react"
import { ContactChannels, EmailVerification, Mfa, Passkeys, Password, QueryCache, Sessions, Totp, UserApiKeys, Users } from "stack-auth-effect"
import type { User } from "stack-auth-effect"
import { useApiKeys, useContactChannels, useSessions, useShownMutation } from "../runtime.js"
import { navigate } from "../router.js"
import { ApiKeyList } from "../ApiKeyList.js"
import { Alert, Badge, Button, ErrorMessage, Field, Loading, Section } from "../ui.js"

type CurrentUser = User.CurrentUser

const valueOf = (form: HTMLFormElement, name: string): string => {
  const element = form.elements.namedItem(name)
  return element instanceof HTMLInputElement ? element.value : ""
}

const formatDate = (date: Date | undefined): string =>
  date === undefined ? "—" : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })

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
    <div>
      <h1>Account settings</h1>
      <p className="muted">Manage how you sign in and what this app knows about you.</p>
      <ProfileSection user={props.user} />
      <EmailsSection />
      <PasswordSection user={props.user} />
      <MfaSection user={props.user} />
      <PasskeysSection user={props.user} />
      <SessionsSection />
      <ApiKeysSection />
      <DeleteAccountSection />
    </div>
  </div>
)

// -----------------------------------------------------------------------------------------------

const ProfileSection = (props: { readonly user: CurrentUser }) => {
  const [saved, setSaved] = useState(false)
  const update = useShownMutation((displayName: string) =>
    Users.updateCurrent({ displayName: displayName.trim() === "" ? null : displayName.trim() }).pipe(Effect.zipRight(Effect.sync(() => setSaved(true))))
  )
  const resend = useShownMutation(() => EmailVerification.sendVerificationEmail(props.user))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    setSaved(false)
    void update.run(valueOf(event.currentTarget, "displayName"))
  }
  return (
    <Section id="profile" title="Profile" description="How you appear to others.">
      <form className="stack" onSubmit={submit} aria-label="Profile">
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
        {props.user.primaryEmail !== null && !props.user.primaryEmailVerified ? (
          <Button variant="secondary" small pending={resend.pending} onClick={() => void resend.run()}>
            Send verification e-mail
          </Button>
        ) : null}
      </div>
      {resend.error === undefined || resend.error === null ? null : <ErrorMessage error={resend.error} />}
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const EmailsSection = () => {
  const channels = useContactChannels()
  const add = useShownMutation((value: string) => ContactChannels.create({ value, usedForAuth: false }))
  const makePrimary = useShownMutation((id: string) => ContactChannels.update(id, { isPrimary: true }))
  const verify = useShownMutation((id: string) => ContactChannels.sendVerificationCode(id))
  const remove = useShownMutation((id: string) => ContactChannels.delete(id))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    void add.run(valueOf(form, "email"))
    form.reset()
  }
  return (
    <Section id="emails" title="E-mails" description="Addresses where we can reach you. The primary one receives account e-mails.">
      {channels.status === "success" ? (
        <ul className="list" aria-label="E-mail addresses">
          {channels.data.map((channel) => (
            <li key={channel.id}>
              <span>
                {channel.value} {channel.isPrimary ? <Badge tone="brand">Primary</Badge> : null}{" "}
                {channel.isVerified ? <Badge tone="green">Verified</Badge> : <Badge>Not verified</Badge>}
              </span>
              <span className="row">
                {channel.isVerified ? null : (
                  <Button variant="ghost" small onClick={() => void verify.run(channel.id)}>
                    Verify
                  </Button>
                )}
                {channel.isPrimary ? null : (
                  <Button variant="ghost" small onClick={() => void makePrimary.run(channel.id)}>
                    Make primary
                  </Button>
                )}
                {channel.isPrimary ? null : (
                  <Button variant="ghost" small onClick={() => void remove.run(channel.id)}>
                    Remove
                  </Button>
                )}
              </span>
            </li>
          ))}
        </ul>
      ) : channels.status === "error" ? (
        <ErrorMessage error={channels.error} />
      ) : (
        <Loading label="Loading e-mails…" />
      )}
      <ErrorMessage error={add.error ?? makePrimary.error ?? verify.error ?? remove.error} />
      <form className="row" style={{ marginTop: "1rem" }} onSubmit={submit} aria-label="Add an e-mail">
        <div style={{ flex: 1 }}>
          <Field label="Add an e-mail" name="email" type="email" required />
        </div>
        <Button type="submit" variant="secondary" pending={add.pending} style={{ alignSelf: "flex-end" }}>
          Add
        </Button>
      </form>
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const PasswordSection = (props: { readonly user: CurrentUser }) => {
  const [done, setDone] = useState(false)
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
    void change.run({ oldPassword: valueOf(form, "oldPassword"), newPassword: valueOf(form, "newPassword") })
    form.reset()
  }
  return (
    <Section id="password" title="Password" description={props.user.hasPassword ? "Change the password you sign in with." : "You have no password yet: set one to sign in with your e-mail."}>
      <form className="stack" onSubmit={submit} aria-label="Password">
        {props.user.hasPassword ? <Field label="Current password" name="oldPassword" type="password" autoComplete="current-password" required /> : null}
        <Field label="New password" name="newPassword" type="password" autoComplete="new-password" minLength={8} required />
        <ErrorMessage error={change.error} />
        {done ? <Alert kind="success">Your password was updated.</Alert> : null}
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
  const uri =
    secret === null ? "" : Totp.otpauthUri({ secret, issuer: Mfa.defaultIssuer, accountName: props.user.primaryEmail ?? props.user.id })
  return (
    <Section id="mfa" title="Two-factor authentication" description="Ask for a code from an authenticator app when signing in.">
      {props.user.isMultiFactorRequired ? (
        <div className="spread">
          <span>
            <Badge tone="green">On</Badge> Signing in asks for an authenticator code.
          </span>
          <Button variant="secondary" pending={disable.pending} onClick={() => void disable.run()}>
            Turn off two-factor authentication
          </Button>
        </div>
      ) : secret === null ? (
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
      ) : (
        <form className="stack" onSubmit={submit} aria-label="Set up two-factor authentication">
          <p>Add this key to your authenticator app (Google Authenticator, 1Password, …), then enter the code it shows.</p>
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
          <Field label="Code from the app" name="code" inputMode="numeric" pattern="[0-9]{6}" maxLength={6} required inputClassName="code-input" />
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
      Effect.zipRight(QueryCache.invalidate(Users.currentUserCacheKey)),
      Effect.zipRight(Effect.sync(() => setRegistered(true)))
    )
  )
  const remove = useShownMutation(() => Users.updateCurrent({ passkeyAuthEnabled: false }).pipe(Effect.zipRight(Effect.sync(() => setRegistered(false)))))
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
          {props.user.passkeyAuthEnabled ? (
            <Button variant="ghost" pending={remove.pending} onClick={() => void remove.run()}>
              Turn off passkey sign-in
            </Button>
          ) : null}
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
      {sessions.status === "success" ? (
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
      ) : sessions.status === "error" ? (
        <ErrorMessage error={sessions.error} />
      ) : (
        <Loading label="Loading sessions…" />
      )}
      <ErrorMessage error={revoke.error} />
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const ApiKeysSection = () => {
  const keys = useApiKeys()
  const [created, setCreated] = useState<{ readonly description: string; readonly value: string } | null>(null)
  const create = useShownMutation((description: string) =>
    UserApiKeys.create({ description, expiresAt: null }).pipe(
      Effect.tap((key) => Effect.sync(() => setCreated({ description: key.description, value: Redacted.value(key.value) })))
    )
  )
  const revoke = useShownMutation((id: string) => UserApiKeys.revoke(id))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    void create.run(valueOf(form, "description"))
    form.reset()
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
      <form className="row" style={{ marginTop: "1rem" }} onSubmit={submit} aria-label="Create an API key">
        <div style={{ flex: 1 }}>
          <Field label="Key description" name="description" required placeholder="e.g. CI deploys" />
        </div>
        <Button type="submit" variant="secondary" pending={create.pending} style={{ alignSelf: "flex-end" }}>
          Create key
        </Button>
      </form>
    </Section>
  )
}

// -----------------------------------------------------------------------------------------------

const DeleteAccountSection = () => {
  const [confirmed, setConfirmed] = useState(false)
  const remove = useShownMutation(() => Users.deleteCurrent().pipe(Effect.zipRight(Effect.sync(() => navigate("/", { replace: true })))))
  return (
    <Section id="danger" title="Delete account" description="Deletes your account and everything in it. This cannot be undone.">
      <div className="stack">
        <label className="checkbox">
          <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.currentTarget.checked)} />I understand that my account will be
          deleted for good.
        </label>
        <ErrorMessage error={remove.error} />
        <div>
          <Button variant="danger" disabled={!confirmed} pending={remove.pending} onClick={() => void remove.run()}>
            Delete my account
          </Button>
        </div>
      </div>
    </Section>
  )
}
