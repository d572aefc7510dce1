/** The app: top bar, and the page of the current path. */
import { useEffect } from "react"
import type { ReactNode } from "react"
import type { User } from "stack-auth-effect"
import { useUser } from "./runtime.js"
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
import { Link, navigate, signInReturningTo, useLocation } from "./router.js"
import { ErrorMessage, Loading, initials } from "./ui.js"

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
    {props.user === undefined ? (
      <div className="user-menu" />
    ) : props.user === null ? (
      <div className="user-menu">
        <Link className="button ghost" to="/handler/sign-in">
          Sign in
        </Link>
        <Link className="button" to="/handler/sign-up">
          Sign up
        </Link>
      </div>
    ) : (
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
  if (query.status === "error") return <ErrorMessage error={query.error} />
  if (query.status === "loading") return <Loading />
  return query.data === null || query.data === undefined ? <Loading label="Redirecting to sign in…" /> : <>{props.children(query.data)}</>
}

const Page = (props: { readonly user: UserState; readonly url: URL }) => {
  const { user, url } = props
  switch (url.pathname.replace(/\/+$/, "") || "/") {
    case "/":
      return user === undefined ? <Loading /> : <HomePage user={user} />
    case "/handler/sign-in":
      return <SignInPage />
    case "/handler/sign-up":
      return <SignUpPage />
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
      return <ErrorPage />
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

/** The whole app (inside `StackProvider`). */
export const App = () => {
  const url = useLocation()
  const query = useUser()
  const user: UserState = query.status === "success" ? query.data : query.status === "loading" ? undefined : null
  return (
    <>
      <TopBar user={user} path={url.pathname} />
      <main className="main">
        {query.status === "error" ? <ErrorMessage error={query.error} /> : null}
        <Page user={user} url={url} />
      </main>
    </>
  )
}
