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
import { useShownMutation, useStackQuery } from "../runtime.js"
import type { AppServices } from "../runtime.js"
import { config } from "../config.js"
import { Link, navigate, returnTo, useLocation, withReturnTo } from "../router.js"
import { checkEmail, checkNewPassword } from "../messages.js"
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

/** Field errors of a form, by field name (checked before anything is sent). */
type FieldErrors = Readonly<Record<string, string | undefined>>

const hasErrors = (errors: FieldErrors): boolean => Object.values(errors).some((error) => error !== undefined)

/** `/handler/sign-in`. */
export const SignInPage = () => {
  const url = useLocation()
  const [magicSent, setMagicSent] = useState<{ readonly email: string; readonly nonce: string } | null>(null)
  const [passwordErrors, setPasswordErrors] = useState<FieldErrors>({})
  const [magicErrors, setMagicErrors] = useState<FieldErrors>({})

  const password = useShownMutation((input: { readonly email: string; readonly password: string }) =>
    Password.signInWithPassword(input).pipe(
      Effect.andThen(goAfterSignIn(url)),
      Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url))
    )
  )
  const magicLink = useShownMutation((email: string) =>
    MagicLink.sendMagicLinkEmail({ email }).pipe(Effect.tap((sent) => Effect.sync(() => setMagicSent({ email, nonce: sent.nonce }))))
  )
  const magicCode = useShownMutation((input: { readonly otp: string; readonly nonce: string }) =>
    MagicLink.signInWithOtp(input).pipe(Effect.andThen(goAfterSignIn(url)), Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url)))
  )
  const oauth = useShownMutation((provider: string) =>
    OAuth.signInWithOAuth({
      provider,
      ...(url.searchParams.has("after_auth_return_to") ? { afterCallbackRedirectUrl: new URL(returnTo(url, "/"), url).href } : {})
    })
  )
  const passkey = useShownMutation(() =>
    Passkeys.signIn().pipe(Effect.andThen(goAfterSignIn(url)), Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url)))
  )

  const submitPassword = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    magicLink.reset()
    const email = valueOf(event.currentTarget, "email").trim()
    const secret = valueOf(event.currentTarget, "password")
    const errors = { email: checkEmail(email), password: secret === "" ? "Enter your password." : undefined }
    setPasswordErrors(errors)
    if (!hasErrors(errors)) void password.run({ email, password: secret })
  }
  const submitMagicLink = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    password.reset()
    const email = valueOf(event.currentTarget, "magic-email").trim()
    const errors = { email: checkEmail(email) }
    setMagicErrors(errors)
    if (!hasErrors(errors)) void magicLink.run(email)
  }
  const submitMagicCode = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const otp = valueOf(event.currentTarget, "magic-code").trim()
    if (magicSent === null) return
    const errors = { code: otp.length === 6 ? undefined : "The code has 6 characters." }
    setMagicErrors(errors)
    if (!hasErrors(errors)) void magicCode.run({ otp, nonce: magicSent.nonce })
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
      <form className="stack" onSubmit={submitPassword} aria-label="Sign in with password" noValidate>
        <Field label="E-mail" name="email" type="email" autoComplete="email" required error={passwordErrors["email"]} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" required error={passwordErrors["password"]} />
        <div className="spread small">
          <span />
          <Link to="/handler/forgot-password">Forgot password?</Link>
        </div>
        <ErrorMessage error={password.error} />
        <Button type="submit" block pending={password.pending}>
          Sign in
        </Button>
        <p className="muted small center">
          Demo account: <code className="nowrap">{config.demoUser.email}</code> / <code className="nowrap">{config.demoUser.password}</code>
        </p>
      </form>

      <div className="divider">or get a link by e-mail</div>
      {magicSent === null ?
        (
          <form className="stack" onSubmit={submitMagicLink} aria-label="Sign in with a magic link" noValidate>
            <Field label="E-mail for the magic link" name="magic-email" type="email" autoComplete="email" required error={magicErrors["email"]} />
            <ErrorMessage error={magicLink.error} />
            <Button type="submit" variant="secondary" block pending={magicLink.pending}>
              Send magic link
            </Button>
          </form>
        ) :
        (
          <form className="stack" onSubmit={submitMagicCode} aria-label="Sign in with the e-mailed code" noValidate>
            <Alert kind="success">
              We sent a sign-in link to{" "}
              <strong>{magicSent.email}</strong>. Open it in this browser, or type the 6-character code from the e-mail here (the emulator keeps the e-mail in
              its outbox).
            </Alert>
            <Field
              label="Code from the e-mail"
              name="magic-code"
              autoComplete="one-time-code"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={6}
              required
              inputClassName="code-input"
              error={magicErrors["code"]}
            />
            <ErrorMessage error={magicCode.error} />
            <Button type="submit" block pending={magicCode.pending}>
              Sign in with the code
            </Button>
            <Button
              variant="ghost"
              small
              onClick={() => {
                magicCode.reset()
                setMagicErrors({})
                setMagicSent(null)
              }}
            >
              Use another e-mail
            </Button>
          </form>
        )}
    </AuthCard>
  )
}

// -----------------------------------------------------------------------------------------------
// Sign up
// -----------------------------------------------------------------------------------------------

/** `/handler/sign-up`. E-mail shape and password length are checked before sending; what was typed stays on an error. */
export const SignUpPage = () => {
  const url = useLocation()
  const [errors, setErrors] = useState<FieldErrors>({})
  const signUp = useShownMutation((input: { readonly email: string; readonly password: string }) =>
    Password.signUpWithPassword(input).pipe(Effect.andThen(Effect.sync(() => navigate(returnTo(url, "/"), { replace: true }))))
  )
  const oauth = useShownMutation((provider: string) => OAuth.signInWithOAuth({ provider }))

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const email = valueOf(form, "email").trim()
    const password = valueOf(form, "password")
    const checked = {
      email: checkEmail(email),
      password: checkNewPassword(password),
      repeat: password === valueOf(form, "repeat") ? undefined : "The passwords do not match."
    }
    setErrors(checked)
    if (!hasErrors(checked)) void signUp.run({ email, password })
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
      <form className="stack" onSubmit={submit} aria-label="Sign up" noValidate>
        <Field label="E-mail" name="email" type="email" autoComplete="email" required error={errors["email"]} />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={8}
          required
          hint="At least 8 characters."
          error={errors["password"]}
        />
        <Field label="Repeat password" name="repeat" type="password" autoComplete="new-password" required error={errors["repeat"]} />
        <ErrorMessage error={signUp.error} />
        {signUp.error?._tag === "UserEmailAlreadyExists" ?
          (
            <p className="small center">
              <Link to={withReturnTo("/handler/sign-in", url)}>Sign in with this e-mail</Link> · <Link to="/handler/forgot-password">Forgot password?</Link>
            </p>
          ) :
          null}
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
      {query.status === "success" ?
        (
          <div className="stack">
            <Alert kind="success">Your session has ended on this device.</Alert>
            <Link className="button block" to="/handler/sign-in">
              Sign in again
            </Link>
            <Link className="button secondary block" to="/">
              Back to home
            </Link>
          </div>
        ) :
        query.status === "error" ?
        (
          <div className="stack">
            <ErrorMessage error={query.error} />
            <Link className="button block" to="/">
              Back to home
            </Link>
          </div>
        ) :
        <Loading label="Signing you out…" />}
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
    ContactChannels.verify(code).pipe(Effect.andThen(Effect.sync(() => setVerified(true))))
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
      {verified ?
        (
          <div className="stack">
            <Alert kind="success">Your e-mail address is verified.</Alert>
            <Link className="button block" to="/">
              Continue
            </Link>
          </div>
        ) :
        (
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
  const send = useShownMutation((email: string) => PasswordReset.sendPasswordResetCode({ email }).pipe(Effect.andThen(Effect.sync(() => setSentTo(email)))))
  const [emailError, setEmailError] = useState<string | undefined>(undefined)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const email = valueOf(event.currentTarget, "email").trim()
    const error = checkEmail(email)
    setEmailError(error)
    if (error === undefined) void send.run(email)
  }
  return (
    <AuthCard title="Reset your password" subtitle="We'll e-mail you a link to choose a new password.">
      {sentTo === null ?
        (
          <form className="stack" onSubmit={submit} aria-label="Forgot password" noValidate>
            <Field label="E-mail" name="email" type="email" autoComplete="email" required error={emailError} />
            <ErrorMessage error={send.error} />
            <Button type="submit" block pending={send.pending}>
              Send reset link
            </Button>
            <Link className="center small" to="/handler/sign-in">
              Back to sign in
            </Link>
          </form>
        ) :
        (
          <Alert kind="success">
            If an account exists for <strong>{sentTo}</strong>, a reset link is on its way.
          </Alert>
        )}
    </AuthCard>
  )
}

/** A reset link whose code the service does not accept: the sentences of this page. */
const resetLinkMessages = {
  InvalidArgument: "This reset link is not valid. Ask for a new one.",
  VerificationCodeNotFound: "This reset link is not valid. Ask for a new one.",
  VerificationCodeExpired: "This reset link has expired. Ask for a new one.",
  VerificationCodeAlreadyUsed: "This reset link was already used. Ask for a new one if you still need it."
} as const

/**
 * `/handler/password-reset?code=…`: the link of the reset e-mail. The code is checked first
 * (`PasswordReset.checkPasswordResetCode`): a bad or used link says so before anyone types a
 * password.
 */
export const PasswordResetPage = () => {
  const url = useLocation()
  const code = url.searchParams.get("code") ?? ""
  const [done, setDone] = useState(false)
  const [errors, setErrors] = useState<FieldErrors>({})
  const check = useStackQuery(PasswordReset.checkPasswordResetCode(code), [code], { enabled: code !== "" })
  const reset = useShownMutation((password: string) => PasswordReset.resetPassword({ code, password }).pipe(Effect.andThen(Effect.sync(() => setDone(true)))))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const password = valueOf(form, "password")
    const checked = {
      password: checkNewPassword(password),
      repeat: password === valueOf(form, "repeat") ? undefined : "The passwords do not match."
    }
    setErrors(checked)
    if (!hasErrors(checked)) void reset.run(password)
  }
  const askAgain = (
    <Link className="button block" to="/handler/forgot-password">
      Ask for a new link
    </Link>
  )
  if (code === "") {
    return (
      <AuthCard title="Choose a new password">
        <div className="stack">
          <Alert kind="error">This link has no reset code. Ask for a new link on the forgot-password page.</Alert>
          {askAgain}
        </div>
      </AuthCard>
    )
  }
  if (check.status === "loading") {
    return (
      <AuthCard title="Choose a new password">
        <Loading label="Checking your reset link…" />
      </AuthCard>
    )
  }
  if (check.status === "error") {
    return (
      <AuthCard title="This reset link cannot be used">
        <div className="stack">
          <ErrorMessage error={check.error} overrides={resetLinkMessages} />
          {askAgain}
        </div>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Choose a new password">
      {done ?
        (
          <div className="stack">
            <Alert kind="success">Your password was changed. Sign in with the new one.</Alert>
            <Link className="button block" to="/handler/sign-in">
              Sign in
            </Link>
          </div>
        ) :
        (
          <form className="stack" onSubmit={submit} aria-label="Reset password" noValidate>
            <Field
              label="New password"
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={8}
              required
              hint="At least 8 characters."
              error={errors["password"]}
            />
            <Field label="Repeat new password" name="repeat" type="password" autoComplete="new-password" required error={errors["repeat"]} />
            <ErrorMessage error={reset.error} overrides={resetLinkMessages} />
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
      Effect.andThen(
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
    <AuthCard title={query.status === "error" ? "You are not signed in" : "Signing you in"}>
      {query.status === "error" ?
        (
          <div className="stack">
            <ErrorMessage error={query.error} />
            <Link className="button block" to="/handler/sign-in">
              Back to sign in
            </Link>
            <Link className="button secondary block" to="/">
              Home
            </Link>
          </div>
        ) :
        <Loading label="Finishing the sign-in with your provider…" />}
    </AuthCard>
  )
}

/** `/handler/magic-link-callback?code=…`: the link of the magic-link e-mail. */
export const MagicLinkCallbackPage = () => {
  const url = useLocation()
  const query = useRunOnArrival(() =>
    MagicLink.signInWithMagicLinkCallback(url.href).pipe(
      Effect.andThen(goAfterSignIn(url)),
      Effect.catchTag("MultiFactorAuthenticationRequired", continueWithMfa(url))
    )
  )
  return (
    <AuthCard title={query.status === "error" ? "This sign-in link cannot be used" : "Signing you in"}>
      {query.status === "error" ?
        (
          <div className="stack">
            <ErrorMessage error={query.error} />
            <Link className="button block" to="/handler/sign-in">
              Back to sign in
            </Link>
          </div>
        ) :
        <Loading label="Checking your magic link…" />}
    </AuthCard>
  )
}
