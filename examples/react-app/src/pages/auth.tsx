/**
 * The sign-in side of the handler pages: sign in (password, magic link, OAuth, passkey), sign up,
 * sign out, e-mail verification, forgot / reset password, MFA code entry, and the OAuth and
 * magic-link callbacks. Every call goes through the React binding's hooks.
 */
import { Effect, Option } from "effect"
import { useEffect, useState } from "react"
import type { FormEvent } from "react"
import { ContactChannels, MagicLink, Mfa, OAuth, Passkeys, Password, PasswordReset, Sessions } from "stack-auth-effect"
import type { KnownErrors } from "stack-auth-effect"
import { useShownMutation } from "../runtime.js"
import type { AppServices } from "../runtime.js"
import { config } from "../config.js"
import { Link, navigate, returnTo, useLocation, withReturnTo } from "../router.js"
import { Alert, AuthCard, Button, ErrorMessage, Field, Loading } from "../ui.js"

type MultiFactorAuthenticationRequired = KnownErrors.MultiFactorAuthenticationRequired

/** Where the MFA page finds the attempt code of the sign-in that asked for a second factor. */
const attemptCodeKey = "stack-demo-mfa-attempt"

/** The OAuth providers of the demo project (served by the emulator's mock provider). */
const providers = [
  { id: "github", label: "GitHub" },
  { id: "google", label: "Google" },
  { id: "microsoft", label: "Microsoft" }
] as const

/** After a sign-in: go to `after_auth_return_to` (when the SDK's trusted-URL check accepts it for this app) or home. */
const goAfterSignIn = (url: URL) => Effect.sync(() => navigate(returnTo(url, "/"), { replace: true }))

/** A sign-in that needs a second factor continues on the MFA page with the attempt code. */
const continueWithMfa = (url: URL) => (error: MultiFactorAuthenticationRequired) =>
  Effect.sync(() => {
    window.sessionStorage.setItem(attemptCodeKey, error.details.attempt_code)
    navigate(withReturnTo("/handler/mfa", url), { replace: true })
  })

const valueOf = (form: HTMLFormElement, name: string): string => {
  const element = form.elements.namedItem(name)
  return element instanceof HTMLInputElement ? element.value : ""
}

/**
 * Runs a page's one-shot effect (a callback code can be used once; a sign-out happens once per
 * visit) when the page mounts, at most once even when React mounts the page twice (StrictMode):
 * the effect is memoized and not interruptible. Its state comes from a `useStackMutation`.
 */
const useRunOnArrival = <A, E>(make: () => Effect.Effect<A, E, AppServices>) => {
  const [once] = useState(() => Effect.runSync(Effect.cached(Effect.uninterruptible(Effect.suspend(make)))))
  const mutation = useShownMutation(() => Effect.as(once, true as const))
  const { run } = mutation
  useEffect(() => {
    void run()
  }, [run])
  const error = mutation.error
  return {
    status: error !== undefined ? ("error" as const) : mutation.data === true ? ("success" as const) : ("loading" as const),
    error
  }
}

// -----------------------------------------------------------------------------------------------
// Sign in
// -----------------------------------------------------------------------------------------------

/** `/handler/sign-in`. */
export const SignInPage = () => {
  const url = useLocation()
  const [magicSentTo, setMagicSentTo] = useState<string | null>(null)

  const password = useShownMutation((input: { readonly email: string; readonly password: string }) =>
    Password.signInWithPassword(input).pipe(
      Effect.zipRight(goAfterSignIn(url)),
      Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url))
    )
  )
  const magicLink = useShownMutation((email: string) =>
    MagicLink.sendMagicLinkEmail({ email }).pipe(Effect.zipRight(Effect.sync(() => setMagicSentTo(email))))
  )
  const oauth = useShownMutation((provider: string) =>
    OAuth.signInWithOAuth({ provider, ...(url.searchParams.has("after_auth_return_to") ? { afterCallbackRedirectUrl: new URL(returnTo(url, "/"), url).href } : {}) })
  )
  const passkey = useShownMutation(() =>
    Passkeys.signIn().pipe(Effect.zipRight(goAfterSignIn(url)), Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url)))
  )

  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    magicLink.reset()
    void password.run({ email: valueOf(event.currentTarget, "email"), password: valueOf(event.currentTarget, "password") })
  }
  const submitMagicLink = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    password.reset()
    void magicLink.run(valueOf(event.currentTarget, "magic-email"))
  }

  return (
    <AuthCard
      title="Sign in"
      subtitle={
        <>
          Don't have an account? <Link to={withReturnTo("/handler/sign-up", url)}>Sign up</Link>
        </>
      }
    >
      <div className="stack">
        <div className="provider-buttons">
          {providers.map((provider) => (
            <Button key={provider.id} variant="secondary" block pending={oauth.pending} onClick={() => void oauth.run(provider.id)}>
              Continue with {provider.label}
            </Button>
          ))}
          <Button variant="secondary" block pending={passkey.pending} onClick={() => void passkey.run()}>
            Sign in with a passkey
          </Button>
        </div>
        <ErrorMessage error={oauth.error ?? passkey.error} />
      </div>

      <div className="divider">or with your password</div>
      <form className="stack" onSubmit={submitPassword} aria-label="Sign in with password">
        <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required />
        <div className="spread small">
          <span />
          <Link to="/handler/forgot-password">Forgot password?</Link>
        </div>
        <ErrorMessage error={password.error} />
        <Button type="submit" block pending={password.pending}>
          Sign in
        </Button>
        <p className="muted small center">
          Demo account: <code>{config.demoUser.email}</code> / <code>{config.demoUser.password}</code>
        </p>
      </form>

      <div className="divider">or get a link by e-mail</div>
      {magicSentTo === null ? (
        <form className="stack" onSubmit={submitMagicLink} aria-label="Sign in with a magic link">
          <Field label="E-mail for the magic link" name="magic-email" type="email" autoComplete="email" required />
          <ErrorMessage error={magicLink.error} />
          <Button type="submit" variant="secondary" block pending={magicLink.pending}>
            Send magic link
          </Button>
        </form>
      ) : (
        <Alert kind="success">
          We sent a sign-in link to <strong>{magicSentTo}</strong>. Open it in this browser to continue (the emulator keeps
          it in its outbox).
        </Alert>
      )}
    </AuthCard>
  )
}

// -----------------------------------------------------------------------------------------------
// Sign up
// -----------------------------------------------------------------------------------------------

/** `/handler/sign-up`. */
export const SignUpPage = () => {
  const url = useLocation()
  const [mismatch, setMismatch] = useState(false)
  const signUp = useShownMutation((input: { readonly email: string; readonly password: string }) =>
    Password.signUpWithPassword(input).pipe(Effect.zipRight(Effect.sync(() => navigate(returnTo(url, "/"), { replace: true }))))
  )
  const oauth = useShownMutation((provider: string) => OAuth.signInWithOAuth({ provider }))

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const password = valueOf(form, "password")
    if (password !== valueOf(form, "repeat")) {
      setMismatch(true)
      return
    }
    setMismatch(false)
    void signUp.run({ email: valueOf(form, "email"), password })
  }

  return (
    <AuthCard
      title="Create your account"
      subtitle={
        <>
          Already have an account? <Link to={withReturnTo("/handler/sign-in", url)}>Sign in</Link>
        </>
      }
    >
      <div className="provider-buttons">
        {providers.map((provider) => (
          <Button key={provider.id} variant="secondary" block pending={oauth.pending} onClick={() => void oauth.run(provider.id)}>
            Sign up with {provider.label}
          </Button>
        ))}
      </div>
      <ErrorMessage error={oauth.error} />
      <div className="divider">or with e-mail</div>
      <form className="stack" onSubmit={submit} aria-label="Sign up">
        <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        <Field label="Password" name="password" type="password" autoComplete="new-password" minLength={8} required hint="At least 8 characters." />
        <Field label="Repeat password" name="repeat" type="password" autoComplete="new-password" required />
        {mismatch ? <Alert kind="error">The passwords do not match.</Alert> : null}
        <ErrorMessage error={signUp.error} />
        <Button type="submit" block pending={signUp.pending}>
          Sign up
        </Button>
      </form>
    </AuthCard>
  )
}

// -----------------------------------------------------------------------------------------------
// Sign out
// -----------------------------------------------------------------------------------------------

/** `/handler/sign-out`: signs out on arrival (once per visit), then offers to sign in again. */
export const SignOutPage = () => {
  const query = useRunOnArrival(() => Sessions.signOut())
  return (
    <AuthCard title={query.status === "success" ? "You are signed out" : "Signing out"}>
      {query.status === "success" ? (
        <div className="stack">
          <Alert kind="success">Your session has ended on this device.</Alert>
          <Link className="button block" to="/handler/sign-in">
            Sign in again
          </Link>
          <Link className="button secondary block" to="/">
            Back to home
          </Link>
        </div>
      ) : query.status === "error" ? (
        <div className="stack">
          <ErrorMessage error={query.error} />
          <Link className="button block" to="/">
            Back to home
          </Link>
        </div>
      ) : (
        <Loading label="Signing you out…" />
      )}
    </AuthCard>
  )
}

// -----------------------------------------------------------------------------------------------
// E-mail verification
// -----------------------------------------------------------------------------------------------

/** `/handler/email-verification?code=…`: the link of the verification e-mail. */
export const EmailVerificationPage = () => {
  const url = useLocation()
  const code = url.searchParams.get("code") ?? ""
  const [verified, setVerified] = useState(false)
  const verify = useShownMutation(() =>
    // also refreshes the user and the contact channels
    ContactChannels.verify(code).pipe(Effect.zipRight(Effect.sync(() => setVerified(true))))
  )

  if (code === "") {
    return (
      <AuthCard title="Verify your e-mail">
        <Alert kind="error">This link has no verification code. Open the link of the e-mail we sent you.</Alert>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Verify your e-mail" subtitle="Confirm that this e-mail address is yours.">
      {verified ? (
        <div className="stack">
          <Alert kind="success">Your e-mail address is verified.</Alert>
          <Link className="button block" to="/">
            Continue
          </Link>
        </div>
      ) : (
        <div className="stack">
          <ErrorMessage error={verify.error} />
          <Button block pending={verify.pending} onClick={() => void verify.run()}>
            Verify my e-mail
          </Button>
        </div>
      )}
    </AuthCard>
  )
}

// -----------------------------------------------------------------------------------------------
// Forgot / reset password
// -----------------------------------------------------------------------------------------------

/** `/handler/forgot-password`. */
export const ForgotPasswordPage = () => {
  const [sentTo, setSentTo] = useState<string | null>(null)
  const send = useShownMutation((email: string) =>
    PasswordReset.sendPasswordResetCode({ email }).pipe(Effect.zipRight(Effect.sync(() => setSentTo(email))))
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void send.run(valueOf(event.currentTarget, "email"))
  }
  return (
    <AuthCard title="Reset your password" subtitle="We'll e-mail you a link to choose a new password.">
      {sentTo === null ? (
        <form className="stack" onSubmit={submit} aria-label="Forgot password">
          <Field label="E-mail" name="email" type="email" autoComplete="email" required />
          <ErrorMessage error={send.error} />
          <Button type="submit" block pending={send.pending}>
            Send reset link
          </Button>
          <Link className="center small" to="/handler/sign-in">
            Back to sign in
          </Link>
        </form>
      ) : (
        <Alert kind="success">
          If an account exists for <strong>{sentTo}</strong>, a reset link is on its way.
        </Alert>
      )}
    </AuthCard>
  )
}

/** `/handler/password-reset?code=…`: the link of the reset e-mail. */
export const PasswordResetPage = () => {
  const url = useLocation()
  const code = url.searchParams.get("code") ?? ""
  const [done, setDone] = useState(false)
  const [mismatch, setMismatch] = useState(false)
  const reset = useShownMutation((password: string) =>
    PasswordReset.resetPassword({ code, password }).pipe(Effect.zipRight(Effect.sync(() => setDone(true))))
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const password = valueOf(form, "password")
    setMismatch(password !== valueOf(form, "repeat"))
    if (password === valueOf(form, "repeat")) void reset.run(password)
  }
  if (code === "") {
    return (
      <AuthCard title="Choose a new password">
        <Alert kind="error">This link has no reset code. Ask for a new link on the forgot-password page.</Alert>
        <p className="center small">
          <Link to="/handler/forgot-password">Forgot password</Link>
        </p>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Choose a new password">
      {done ? (
        <div className="stack">
          <Alert kind="success">Your password was changed. Sign in with the new one.</Alert>
          <Link className="button block" to="/handler/sign-in">
            Sign in
          </Link>
        </div>
      ) : (
        <form className="stack" onSubmit={submit} aria-label="Reset password">
          <Field label="New password" name="password" type="password" autoComplete="new-password" minLength={8} required />
          <Field label="Repeat new password" name="repeat" type="password" autoComplete="new-password" required />
          {mismatch ? <Alert kind="error">The passwords do not match.</Alert> : null}
          <ErrorMessage error={reset.error} />
          <Button type="submit" block pending={reset.pending}>
            Change password
          </Button>
        </form>
      )}
    </AuthCard>
  )
}

// -----------------------------------------------------------------------------------------------
// MFA
// -----------------------------------------------------------------------------------------------

/** `/handler/mfa`: the second factor of a sign-in (the attempt code is kept in sessionStorage). */
export const MfaPage = () => {
  const url = useLocation()
  const [attemptCode] = useState(() => window.sessionStorage.getItem(attemptCodeKey))
  const signIn = useShownMutation((totp: string) =>
    Mfa.signIn({ attemptCode: attemptCode ?? "", totp }).pipe(
      Effect.zipRight(
        Effect.sync(() => {
          window.sessionStorage.removeItem(attemptCodeKey)
          navigate(returnTo(url, "/"), { replace: true })
        })
      )
    )
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void signIn.run(valueOf(event.currentTarget, "totp"))
  }
  if (attemptCode === null) {
    return (
      <AuthCard title="Two-factor authentication">
        <Alert kind="warning">There is no sign-in waiting for a second factor. Start by signing in.</Alert>
        <p className="center">
          <Link to="/handler/sign-in">Sign in</Link>
        </p>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Two-factor authentication" subtitle="Enter the 6-digit code from your authenticator app.">
      <form className="stack" onSubmit={submit} aria-label="Second factor">
        <Field
          label="Authenticator code"
          name="totp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          autoFocus
          inputClassName="code-input"
        />
        <ErrorMessage error={signIn.error} />
        <Button type="submit" block pending={signIn.pending}>
          Verify
        </Button>
      </form>
    </AuthCard>
  )
}

// -----------------------------------------------------------------------------------------------
// Callbacks
// -----------------------------------------------------------------------------------------------

/** `/handler/oauth-callback`: finishes the OAuth flow started on the sign-in page. */
export const OAuthCallbackPage = () => {
  const url = useLocation()
  const query = useRunOnArrival(() =>
    OAuth.handleCallback().pipe(
      Effect.tap((result) => Effect.sync(() => navigate(Option.match(result, { onNone: () => "/", onSome: (r) => r.redirectUrl }), { replace: true }))),
      Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url))
    )
  )
  return (
    <AuthCard title="Signing you in">
      {query.status === "error" ? (
        <div className="stack">
          <ErrorMessage error={query.error} />
          <Link className="button block" to="/handler/sign-in">
            Back to sign in
          </Link>
        </div>
      ) : (
        <Loading label="Finishing the sign-in with your provider…" />
      )}
    </AuthCard>
  )
}

/** `/handler/magic-link-callback?code=…`: the link of the magic-link e-mail. */
export const MagicLinkCallbackPage = () => {
  const url = useLocation()
  const query = useRunOnArrival(() =>
    MagicLink.signInWithMagicLinkCallback(url.href).pipe(
      Effect.zipRight(goAfterSignIn(url)),
      Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url))
    )
  )
  return (
    <AuthCard title="Signing you in">
      {query.status === "error" ? (
        <div className="stack">
          <ErrorMessage error={query.error} />
          <Link className="button block" to="/handler/sign-in">
            Back to sign in
          </Link>
        </div>
      ) : (
        <Loading label="Checking your magic link…" />
      )}
    </AuthCard>
  )
}
