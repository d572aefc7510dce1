/** The error page, the CLI login confirmation, and "not found". */
import { Effect } from "effect"
import { useState } from "react"
import { Cli, OAuth } from "stack-auth-effect"
import { useShownMutation } from "../runtime.js"
import { Link, useLocation } from "../router.js"
import { Alert, AuthCard, Button, ErrorMessage } from "../ui.js"

/**
 * `/handler/error?errorCode=…`: where the service sends errors it cannot show elsewhere. The page
 * rebuilds the typed error from the URL (`OAuth.callbackUrlError`) and shows the sentence the app
 * has for it: the URL's own `message=` is never shown (anyone can write a link with a fake one),
 * and an unknown code gets a general sentence. `signedIn` is `undefined` while the user is read:
 * the way back to the sign-in page appears only for a visitor known to be signed out.
 */
export const ErrorPage = (props: { readonly signedIn: boolean | undefined }) => {
  const url = useLocation()
  const carriesError = url.searchParams.has("errorCode") || url.searchParams.has("error")
  return (
    <AuthCard title="Something went wrong">
      <div className="stack">
        {carriesError ?
          <ErrorMessage error={OAuth.callbackUrlError(url)} /> :
          <Alert kind="error">Something went wrong, and we do not know what. Please try again.</Alert>}
        {/* only once the user is read: a signed-in visitor is never offered a sign-in, not even while loading */}
        {props.signedIn === false ?
          (
            <Link className="button block" to="/handler/sign-in">
              Back to sign in
            </Link>
          ) :
          null}
        <Link className={props.signedIn === false ? "button secondary block" : "button block"} to="/">
          Home
        </Link>
      </div>
    </AuthCard>
  )
}

/** `/handler/cli-auth-confirm?login_code=…`: the signed-in user lets a command-line tool sign in as them. */
export const CliAuthConfirmPage = () => {
  const url = useLocation()
  const loginCode = url.searchParams.get("login_code") ?? ""
  const [done, setDone] = useState(false)
  const confirm = useShownMutation(() => Cli.complete(loginCode).pipe(Effect.andThen(Effect.sync(() => setDone(true)))))
  if (loginCode === "") {
    return (
      <AuthCard title="Authorize the CLI">
        <Alert kind="error">This link has no login code. Start the login again from your terminal.</Alert>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Authorize the CLI" subtitle="A command-line tool asks to sign in as you.">
      {done ? <Alert kind="success">The CLI is signed in. You can close this page and go back to your terminal.</Alert> : (
        <div className="stack">
          <p className="muted small center">Only continue if you started this login yourself.</p>
          <ErrorMessage error={confirm.error} />
          {confirm.error?._tag === "CliInvalidLoginCode" ? null : (
            <Button block pending={confirm.pending} onClick={() => void confirm.run()}>
              Authorize CLI
            </Button>
          )}
          <Link className="button secondary block" to="/">
            Cancel
          </Link>
        </div>
      )}
    </AuthCard>
  )
}

/** Any other path. */
export const NotFoundPage = () => (
  <AuthCard title="Page not found">
    <p className="center muted">There is nothing at this address.</p>
    <Link className="button block" to="/">
      Home
    </Link>
  </AuthCard>
)
