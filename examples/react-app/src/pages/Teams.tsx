/**
 * `/teams`: the signed-in user's teams (create, switch, leave), the current team's members,
 * invitations, the user's permissions in it and its API keys; invitations addressed to the user.
 * `/handler/team-invitation?code=…`: accepting an e-mailed invitation.
 */
import { Effect, Redacted } from "effect"
import { useState } from "react"
import type { FormEvent } from "react"
import { Permissions, TeamApiKeys, TeamInvitations, Teams, Users } from "stack-auth-effect"
import type { User } from "stack-auth-effect"
import { useShownMutation, useStackQuery, useTeam, useTeamApiKeys, useTeamInvitations, useTeamMembers, useTeams } from "../runtime.js"
import { ApiKeyList } from "../ApiKeyList.js"
import { Link, navigate, useLocation } from "../router.js"
import { Alert, AuthCard, Badge, Button, ErrorMessage, Field, Loading, Section } from "../ui.js"

type CurrentUser = User.CurrentUser

const valueOf = (form: HTMLFormElement, name: string): string => {
  const element = form.elements.namedItem(name)
  return element instanceof HTMLInputElement ? element.value : ""
}

/** The teams page of the signed-in user. */
export const TeamsPage = (props: { readonly user: CurrentUser }) => {
  const teams = useTeams()
  const select = useShownMutation((teamId: string | null) => Users.updateCurrent({ selectedTeamId: teamId }))
  const create = useShownMutation((displayName: string) =>
    Effect.flatMap(Teams.create({ displayName }), (team) => Users.updateCurrent({ selectedTeamId: team.id }))
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    void create.run(valueOf(form, "teamName").trim())
    form.reset()
  }
  const selectedId = props.user.selectedTeamId
  return (
    <div className="stack">
      <div>
        <h1>Teams</h1>
        <p className="muted">Work together: create a team, invite people, and manage what they can do.</p>
      </div>
      <InvitationsForMe />
      <div className="grid-2" style={{ alignItems: "start" }}>
        <Section title="Your teams">
          {teams.status === "success" ? (
            teams.data.length === 0 ? (
              <p className="muted small">You are not in a team yet.</p>
            ) : (
              <ul className="list" aria-label="Your teams">
                {teams.data.map((team) => (
                  <li key={team.id}>
                    <span>
                      {team.displayName} {team.id === selectedId ? <Badge tone="brand">Current</Badge> : null}
                    </span>
                    {team.id === selectedId ? null : (
                      <Button variant="ghost" small onClick={() => void select.run(team.id)}>
                        Switch to {team.displayName}
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )
          ) : teams.status === "error" ? (
            <ErrorMessage error={teams.error} />
          ) : (
            <Loading label="Loading teams…" />
          )}
          <ErrorMessage error={select.error} />
          <form className="stack" style={{ marginTop: "1rem" }} onSubmit={submit} aria-label="Create a team">
            <Field label="Team name" name="teamName" required maxLength={256} />
            <ErrorMessage error={create.error} />
            <div>
              <Button type="submit" pending={create.pending}>
                Create team
              </Button>
            </div>
          </form>
        </Section>
        {selectedId === null ? (
          <Section title="No team selected">
            <p className="muted">Create a team or switch to one of yours to manage it.</p>
          </Section>
        ) : (
          <TeamDetails key={selectedId} teamId={selectedId} user={props.user} />
        )}
      </div>
    </div>
  )
}

const InvitationsForMe = () => {
  const invitations = useStackQuery(TeamInvitations.listMine(), [])
  const accept = useShownMutation((id: string) => TeamInvitations.acceptById(id))
  if (invitations.status !== "success" || invitations.data.length === 0) return null
  return (
    <Alert kind="info">
      <div className="stack">
        {invitations.data.map((invitation) => (
          <div key={invitation.id} className="spread">
            <span>
              You are invited to join <strong>{invitation.teamDisplayName}</strong>.
            </span>
            <Button small pending={accept.pending} onClick={() => void accept.run(invitation.id)}>
              Join {invitation.teamDisplayName}
            </Button>
          </div>
        ))}
        <ErrorMessage error={accept.error} />
      </div>
    </Alert>
  )
}

const TeamDetails = (props: { readonly teamId: string; readonly user: CurrentUser }) => {
  const { teamId } = props
  const team = useTeam(teamId)
  const permissions = useStackQuery(Permissions.listTeamPermissions(teamId), [teamId])
  const leave = useShownMutation(() =>
    Teams.leave(teamId).pipe(Effect.zipRight(Users.updateCurrent({ selectedTeamId: null })))
  )
  const held = new Set(permissions.status === "success" ? permissions.data.map((permission) => permission.id) : [])
  if (team.status === "loading") return <Loading label="Loading the team…" />
  if (team.status === "error") return <ErrorMessage error={team.error} />
  return (
    <div className="stack">
      <Section title={team.data.displayName} description="The team you are working in.">
        <div className="stack">
          <div>
            <span className="small muted">Your permissions: </span>
            {permissions.status === "success" ? (
              <span className="row" style={{ display: "inline-flex" }} data-testid="team-permissions">
                {permissions.data.map((permission) => (
                  <Badge key={permission.id} tone={permission.id.startsWith("$") ? undefined : "brand"}>
                    {permission.id}
                  </Badge>
                ))}
              </span>
            ) : permissions.status === "error" ? (
              <ErrorMessage error={permissions.error} />
            ) : (
              <span className="spinner" aria-label="Loading permissions" />
            )}
          </div>
          {held.has("$update_team") ? <RenameTeam teamId={teamId} name={team.data.displayName} /> : null}
          <ErrorMessage error={leave.error} />
          <div>
            <Button variant="secondary" small pending={leave.pending} onClick={() => void leave.run()}>
              Leave team
            </Button>
          </div>
        </div>
      </Section>
      <MembersSection teamId={teamId} canRemove={held.has("$remove_members")} me={props.user.id} />
      {held.has("$invite_members") ? <InviteSection teamId={teamId} /> : null}
      <TeamApiKeysSection teamId={teamId} />
    </div>
  )
}

const RenameTeam = (props: { readonly teamId: string; readonly name: string }) => {
  const rename = useShownMutation((displayName: string) => Teams.update(props.teamId, { displayName }))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void rename.run(valueOf(event.currentTarget, "displayName").trim())
  }
  return (
    <form className="row" onSubmit={submit} aria-label="Rename team">
      <div style={{ flex: 1 }}>
        <Field label="Team name" name="displayName" defaultValue={props.name} required />
      </div>
      <Button type="submit" variant="secondary" pending={rename.pending} style={{ alignSelf: "flex-end" }}>
        Rename
      </Button>
      <ErrorMessage error={rename.error} />
    </form>
  )
}

const MembersSection = (props: { readonly teamId: string; readonly canRemove: boolean; readonly me: string }) => {
  const members = useTeamMembers(props.teamId)
  const remove = useShownMutation((userId: string) => Teams.removeMember(props.teamId, userId))
  return (
    <Section title="Members">
      {members.status === "success" ? (
        <ul className="list" aria-label="Members">
          {members.data.map((member) => (
            <li key={member.userId}>
              <span>
                {member.displayName ?? <span className="muted">No display name</span>}{" "}
                {member.userId === props.me ? <Badge tone="brand">You</Badge> : null}
              </span>
              {props.canRemove && member.userId !== props.me ? (
                <Button variant="ghost" small onClick={() => void remove.run(member.userId)}>
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : members.status === "error" ? (
        <ErrorMessage error={members.error} />
      ) : (
        <Loading label="Loading members…" />
      )}
      <ErrorMessage error={remove.error} />
    </Section>
  )
}

const InviteSection = (props: { readonly teamId: string }) => {
  const invitations = useTeamInvitations(props.teamId)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const send = useShownMutation((email: string) =>
    TeamInvitations.send({ teamId: props.teamId, email }).pipe(Effect.zipRight(Effect.sync(() => setSentTo(email))))
  )
  const revoke = useShownMutation((id: string) => TeamInvitations.revoke(props.teamId, id))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    void send.run(valueOf(form, "inviteEmail").trim())
    form.reset()
  }
  return (
    <Section title="Invitations" description="Invite people by e-mail; they join when they open the link.">
      <form className="row" onSubmit={submit} aria-label="Invite a member">
        <div style={{ flex: 1 }}>
          <Field label="E-mail to invite" name="inviteEmail" type="email" required />
        </div>
        <Button type="submit" pending={send.pending} style={{ alignSelf: "flex-end" }}>
          Send invitation
        </Button>
      </form>
      {sentTo === null || send.pending ? null : <Alert kind="success">Invitation sent to {sentTo}.</Alert>}
      <ErrorMessage error={send.error ?? revoke.error} />
      {invitations.status === "success" ? (
        invitations.data.length === 0 ? null : (
          <ul className="list" aria-label="Pending invitations" style={{ marginTop: "1rem" }}>
            {invitations.data.map((invitation) => (
              <li key={invitation.id}>
                <span>
                  {invitation.recipientEmail} <span className="small muted">expires {invitation.expiresAt.toLocaleDateString()}</span>
                </span>
                <Button variant="ghost" small onClick={() => void revoke.run(invitation.id)}>
                  Revoke
                </Button>
              </li>
            ))}
          </ul>
        )
      ) : invitations.status === "error" ? (
        <ErrorMessage error={invitations.error} />
      ) : null}
    </Section>
  )
}

const TeamApiKeysSection = (props: { readonly teamId: string }) => {
  const keys = useTeamApiKeys(props.teamId)
  const [created, setCreated] = useState<string | null>(null)
  const create = useShownMutation((description: string) =>
    TeamApiKeys.create({ owner: { teamId: props.teamId }, description, expiresAt: null }).pipe(
      Effect.tap((key) => Effect.sync(() => setCreated(Redacted.value(key.value))))
    )
  )
  const revoke = useShownMutation((id: string) => TeamApiKeys.revoke(props.teamId, id))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    void create.run(valueOf(form, "keyDescription").trim())
    form.reset()
  }
  return (
    <Section title="Team API keys" description="Keys that act for the team. Shown once, when created.">
      {created === null ? null : (
        <Alert kind="success">
          New team key — copy it now:
          <div className="secret" data-testid="new-team-api-key">
            {created}
          </div>
        </Alert>
      )}
      <ApiKeyList keys={keys} label="Team API keys" emptyText="No team keys yet." loadingText="Loading team keys…" onRevoke={(id) => void revoke.run(id)} />
      <ErrorMessage error={create.error ?? revoke.error} />
      <form className="row" style={{ marginTop: "1rem" }} onSubmit={submit} aria-label="Create a team API key">
        <div style={{ flex: 1 }}>
          <Field label="Team key description" name="keyDescription" required />
        </div>
        <Button type="submit" variant="secondary" pending={create.pending} style={{ alignSelf: "flex-end" }}>
          Create team key
        </Button>
      </form>
    </Section>
  )
}

/** `/handler/team-invitation?code=…`: the link of an invitation e-mail (the visitor signs in first). */
export const TeamInvitationPage = () => {
  const url = useLocation()
  const code = url.searchParams.get("code") ?? ""
  const details = useStackQuery(TeamInvitations.details(code), [code], { enabled: code !== "" })
  const accept = useShownMutation(() => TeamInvitations.accept(code).pipe(Effect.zipRight(Effect.sync(() => navigate("/teams")))))
  if (code === "") {
    return (
      <AuthCard title="Team invitation">
        <Alert kind="error">This link has no invitation code. Open the link of the e-mail you received.</Alert>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Team invitation">
      {details.status === "loading" ? (
        <Loading label="Checking the invitation…" />
      ) : details.status === "error" ? (
        <div className="stack">
          <ErrorMessage error={details.error} />
          <Link className="button secondary block" to="/teams">
            Go to your teams
          </Link>
        </div>
      ) : (
        <div className="stack">
          <p className="center">
            You are invited to join <strong>{details.data!.teamDisplayName}</strong>.
          </p>
          <ErrorMessage error={accept.error} />
          <Button block pending={accept.pending} onClick={() => void accept.run()}>
            Join {details.data!.teamDisplayName}
          </Button>
          <Link className="button secondary block" to="/">
            Not now
          </Link>
        </div>
      )}
    </AuthCard>
  )
}
