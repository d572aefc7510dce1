/** `/`: a landing page for visitors, a small dashboard for signed-in users. */
import type { User } from "stack-auth-effect"
import { config } from "../config.js"
import { Link } from "../router.js"
import { Alert, Badge, Section } from "../ui.js"

type CurrentUser = User.CurrentUser

/** The home page. */
export const HomePage = (props: { readonly user: CurrentUser | null }) => {
  const user = props.user
  if (user === null) {
    return (
      <div className="hero">
        <h1>Authentication, as Effects</h1>
        <p>
          This demo app runs every Stack Auth flow — passwords, magic links, OAuth, passkeys, two-factor codes, teams and CLI login — against a local emulator
          of the service, through the stack-auth-effect React binding.
        </p>
        <div className="row" style={{ justifyContent: "center" }}>
          <Link className="button" to="/handler/sign-up">
            Create an account
          </Link>
          <Link className="button secondary" to="/handler/sign-in">
            Sign in
          </Link>
        </div>
        <p className="small" style={{ marginTop: "1.5rem" }}>
          Demo account: <code className="nowrap">{config.demoUser.email}</code> / <code className="nowrap">{config.demoUser.password}</code>
        </p>
      </div>
    )
  }
  return (
    <div className="stack">
      <div>
        <h1>Welcome, {user.displayName ?? user.primaryEmail ?? "there"}</h1>
        <p className="muted">You are signed in to the demo project.</p>
      </div>
      {user.primaryEmail !== null && !user.primaryEmailVerified ?
        (
          <Alert kind="warning">
            Please verify <strong>{user.primaryEmail}</strong>: we sent you a link. You can send another from{" "}
            <Link to="/handler/account-settings#profile">account settings</Link>.
          </Alert>
        ) :
        null}
      <div className="grid-2">
        <Section title="Your account">
          <dl className="kv">
            <dt>Display name</dt>
            <dd data-testid="home-display-name">{user.displayName ?? "—"}</dd>
            <dt>E-mail</dt>
            <dd>
              {user.primaryEmail ?? "—"}{" "}
              {user.primaryEmail === null ? null : user.primaryEmailVerified ? <Badge tone="green">Verified</Badge> : <Badge>Not verified</Badge>}
            </dd>
            <dt>Two-factor</dt>
            <dd>{user.isMultiFactorRequired ? <Badge tone="green">On</Badge> : <Badge>Off</Badge>}</dd>
            <dt>Passkey</dt>
            <dd>{user.passkeyAuthEnabled ? <Badge tone="green">Registered</Badge> : <Badge>None</Badge>}</dd>
            <dt>Connected accounts</dt>
            <dd>{user.oauthProviders.length === 0 ? "—" : user.oauthProviders.map((provider) => provider.id).join(", ")}</dd>
            <dt>Signed up</dt>
            <dd>{user.signedUpAt.toLocaleDateString()}</dd>
          </dl>
          <p style={{ marginTop: "1rem" }}>
            <Link to="/handler/account-settings">Manage your account →</Link>
          </p>
        </Section>
        <Section title="Your team">
          {user.selectedTeam === null ? <p className="muted">You have not picked a team yet.</p> : (
            <p>
              Current team: <strong>{user.selectedTeam.displayName}</strong>
            </p>
          )}
          <Link to="/teams">Teams →</Link>
        </Section>
      </div>
    </div>
  )
}
