/**
 * The app: top bar, the server-reachability banner, and the page of the current path.
 *
 * What the shell does for every page:
 * - a network failure never signs anyone out: the last user read stays on screen, a banner says
 *   the server cannot be reached (from the first failed attempt, while the SDK retries) and offers
 *   Retry; the user is read again as soon as the server answers;
 * - a session revoked on another device ends here as soon as the SDK sees it: when the tab comes
 *   back into view the app asks for a new access token, and a rejected refresh token signs out
 *   (the SDK clears both tokens; every hook re-reads for "nobody").
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { useCallback, useEffect, useState } from "react"
import type { ReactNode } from "react"
import { QueryCache, Session } from "stack-auth-effect"
import type { User } from "stack-auth-effect"
import { useConnectivity } from "./connectivity.js"
import { isNetworkFailure } from "./messages.js"
import { runtime, useUser } from "./runtime.js"
import { AccountSettingsPage } from "./pages/AccountSettings.js"
import {
  EmailVerificationPage,
  ForgotPasswordPage,
  MagicLinkCallbackPage,
  MfaPage,
  OAuthCallbackPage,
  PasswordResetPage,
  SignInPage,
  SignOutPage,
  SignUpPage
} from "./pages/auth.js"
import { HomePage } from "./pages/Home.js"
import { CliAuthConfirmPage, ErrorPage, NotFoundPage } from "./pages/Misc.js"
import { TeamInvitationPage, TeamsPage } from "./pages/Teams.js"
import { Link, navigate, returnTo, signInReturningTo, useLocation } from "./router.js"
import { Alert, AuthCard, Button, ErrorMessage, initials, Loading } from "./ui.js"

type CurrentUser = User.CurrentUser

/** The signed-in user, `null` for a visitor, `undefined` while it is being read. */
type UserState = CurrentUser | null | undefined

const TopBar = (props: { readonly user: UserState; readonly path: string }) => (
  <header className="topbar">
    <Link className="brand" to="/">
      <span className="brand-mark" aria-hidden="true">
        ✓
      </span>
      Acme Demo
    </Link>
    <nav className="nav" aria-label="Main">
      <Link to="/" className={props.path === "/" ? "active" : ""}>
        Home
      </Link>
      {props.user === null || props.user === undefined ? null : (
        <>
          <Link to="/teams" className={props.path === "/teams" ? "active" : ""}>
            Teams
          </Link>
          <Link to="/handler/account-settings" className={props.path === "/handler/account-settings" ? "active" : ""}>
            Account settings
          </Link>
        </>
      )}
    </nav>
    {props.user === undefined ? <div className="user-menu" /> : props.user === null ?
      (
        <div className="user-menu">
          <Link className="button ghost" to="/handler/sign-in">
            Sign in
          </Link>
          <Link className="button" to="/handler/sign-up">
            Sign up
          </Link>
        </div>
      ) :
      (
        <div className="user-menu">
          <span className="avatar" aria-hidden="true">
            {initials(props.user.displayName, props.user.primaryEmail)}
          </span>
          <span className="small" data-testid="current-user">
            {props.user.displayName ?? props.user.primaryEmail}
          </span>
          <Link className="button ghost small" to="/handler/sign-out">
            Sign out
          </Link>
        </div>
      )}
  </header>
)

/**
 * Sends a visitor without a session to the sign-in page (coming back here afterwards). It reads
 * the user with its own query, started when the page mounts: right after a sign-in the shell's
 * copy may still be the previous (signed-out) one.
 */
const RequireUser = (props: { readonly url: URL; readonly children: (user: CurrentUser) => ReactNode }) => {
  const query = useUser()
  const target = signInReturningTo(props.url)
  const missing = query.status === "success" && query.data === null
  useEffect(() => {
    if (missing) navigate(target, { replace: true })
  }, [missing, target])
  // a network failure keeps the user last read (the banner above says the server is unreachable)
  if (query.status === "error" && query.data !== undefined && query.data !== null && isNetworkFailure(query.error)) {
    return <>{props.children(query.data)}</>
  }
  if (query.status === "error") return isNetworkFailure(query.error) ? <Loading label="Waiting for the server…" /> : <ErrorMessage error={query.error} />
  if (query.status === "loading") return <Loading />
  return query.data === null || query.data === undefined ? <Loading label="Redirecting to sign in…" /> : <>{props.children(query.data)}</>
}

const Page = (props: { readonly user: UserState; readonly url: URL }) => {
  const { user, url } = props
  switch (url.pathname.replace(/\/+$/, "") || "/") {
    case "/":
      return user === undefined ? <Loading /> : <HomePage user={user} />
    case "/handler/sign-in":
      // the form stays mounted while the user is read (what was typed is kept)
      return user === null || user === undefined ? <SignInPage /> : <AlreadySignedIn user={user} url={url} />
    case "/handler/sign-up":
      return user === null || user === undefined ? <SignUpPage /> : <AlreadySignedIn user={user} url={url} />
    case "/handler/sign-out":
      return <SignOutPage />
    case "/handler/email-verification":
      return <EmailVerificationPage />
    case "/handler/forgot-password":
      return <ForgotPasswordPage />
    case "/handler/password-reset":
      return <PasswordResetPage />
    case "/handler/mfa":
      return <MfaPage />
    case "/handler/oauth-callback":
      return <OAuthCallbackPage />
    case "/handler/magic-link-callback":
      return <MagicLinkCallbackPage />
    case "/handler/error":
      return <ErrorPage signedIn={user === undefined ? undefined : user !== null} />
    case "/handler/account-settings":
      return <RequireUser url={url}>{(current) => <AccountSettingsPage user={current} />}</RequireUser>
    case "/teams":
      return <RequireUser url={url}>{(current) => <TeamsPage user={current} />}</RequireUser>
    case "/handler/team-invitation":
      return <RequireUser url={url}>{() => <TeamInvitationPage />}</RequireUser>
    case "/handler/cli-auth-confirm":
      return <RequireUser url={url}>{() => <CliAuthConfirmPage />}</RequireUser>
    default:
      return <NotFoundPage />
  }
}

/** The sign-in and sign-up pages for someone who is already signed in. */
const AlreadySignedIn = (props: { readonly user: CurrentUser; readonly url: URL }) => (
  <AuthCard title="You are already signed in">
    <div className="stack">
      <p className="center">
        Signed in as <strong>{props.user.displayName ?? props.user.primaryEmail ?? "you"}</strong>.
      </p>
      <Link className="button block" to={returnTo(props.url, "/")}>
        Continue
      </Link>
      <Link className="button secondary block" to="/handler/sign-out">
        Sign out to use another account
      </Link>
    </div>
  </AuthCard>
)

/** Says that the server cannot be reached while the SDK retries, with a Retry button. */
const ConnectivityBanner = (props: { readonly onRetry: () => void; readonly gaveUp: boolean }) => (
  <div className="banner" role="status" aria-live="polite" data-testid="connectivity-banner">
    <span>
      <strong>We can't reach the server.</strong> {props.gaveUp ? "Check your connection." : "Retrying…"} Your data stays as it was.
    </span>
    <Button small variant="secondary" onClick={props.onRetry}>
      Retry now
    </Button>
  </div>
)

/**
 * Asks for a new access token (`Session.refresh`): a session revoked on another device answers
 * with a rejected refresh token, and the SDK signs out (both tokens cleared). `true` when that
 * happened; a network failure keeps the session.
 */
const checkSession = Effect.gen(function* () {
  const session = yield* Session.Session
  const before = yield* session.current
  if (Option.isNone(before.refreshToken)) return false
  yield* Effect.ignore(session.refresh)
  const after = yield* session.current
  return Option.isNone(after.refreshToken) && Option.isNone(after.accessToken)
})

/** Runs {@link checkSession} whenever the tab comes back into view; `ended` once it signed out. */
const useSessionCheck = (signedIn: boolean) => {
  const [ended, setEnded] = useState(false)
  useEffect(() => {
    // signed in again: the notice is over
    if (signedIn) setEnded(false)
  }, [signedIn])
  useEffect(() => {
    if (!signedIn) return
    let active = true
    const check = () => {
      if (document.visibilityState !== "visible") return
      void runtime.runPromise(checkSession).then(
        (wasEnded) => {
          if (active && wasEnded) setEnded(true)
        },
        () => undefined
      )
    }
    document.addEventListener("visibilitychange", check)
    window.addEventListener("focus", check)
    return () => {
      active = false
      document.removeEventListener("visibilitychange", check)
      window.removeEventListener("focus", check)
    }
  }, [signedIn])
  return ended
}

/** The whole app (inside `StackProvider`). */
export const App = () => {
  const url = useLocation()
  const query = useUser()
  const connectivity = useConnectivity()
  const networkFailed = query.status === "error" && isNetworkFailure(query.error)
  // a network failure is not a verdict on the session: keep the user last read (or "not known yet")
  const user: UserState = query.status === "success" ? query.data : query.status === "loading" || networkFailed ? (query.data ?? undefined) : null
  const { refetch } = query
  // read everything on screen again: the user, and every cached read (an empty prefix matches all)
  const retry = useCallback(() => {
    refetch()
    void runtime.runPromise(QueryCache.invalidate([]))
  }, [refetch])
  // the server answers again after an outage: read everything again at once
  const [wasUnreachable, setWasUnreachable] = useState(false)
  useEffect(() => {
    if (!connectivity.reachable) setWasUnreachable(true)
    else if (wasUnreachable) {
      setWasUnreachable(false)
      retry()
    }
  }, [connectivity.reachable, wasUnreachable, retry])
  useEffect(() => {
    window.addEventListener("online", retry)
    return () => window.removeEventListener("online", retry)
  }, [retry])
  const sessionEnded = useSessionCheck(user !== null && user !== undefined)
  const unreachable = !connectivity.reachable || networkFailed
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar user={user} path={url.pathname} />
      {unreachable ? <ConnectivityBanner onRetry={retry} gaveUp={networkFailed} /> : null}
      <main className="main" id="main" tabIndex={-1}>
        {sessionEnded && user === null ?
          (
            <div className="stack notice">
              <Alert kind="warning">
                You were signed out: this session was ended from another device. <Link to="/handler/sign-in">Sign in again</Link>
              </Alert>
            </div>
          ) :
          null}
        {query.status === "error" && !networkFailed ? <ErrorMessage error={query.error} /> : null}
        {user === undefined && networkFailed ? <Loading label="Waiting for the server…" /> : <Page user={user} url={url} />}
      </main>
    </>
  )
}
