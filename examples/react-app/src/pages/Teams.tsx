/**
 * `/teams`: the signed-in user's teams (create, switch, leave), the current team's members,
 * invitations, the user's permissions in it and its API keys; invitations addressed to the user.
 * `/handler/team-invitation?code=…`: accepting an e-mailed invitation.
 */
import { Effect, Exit, Redacted } from "effect"
import { useState } from "react"
import type { FormEvent } from "react"
import { Permissions, TeamApiKeys, TeamInvitations, Teams, Users } from "stack-auth-effect"
import type { User } from "stack-auth-effect"
import { usePermission, useShownMutation, useStackQuery, useTeam, useTeamApiKeys, useTeamInvitations, useTeamMembers, useTeams } from "../runtime.js"
import { checkEmail } from "../messages.js"
import { memberPermissions, setMemberPermission } from "../appApi.js"
import { ApiKeyList } from "../ApiKeyList.js"
import { Link, navigate, useLocation } from "../router.js"
import { Alert, AuthCard, Badge, Button, ConfirmByTyping, ErrorMessage, Field, Loading, Section } from "../ui.js"

type CurrentUser = User.CurrentUser

const valueOf = (form: HTMLFormElement, name: string): string => {
  const element = form.elements.namedItem(name)
  return element instanceof HTMLInputElement ? element.value : ""
}

/** The built-in team permissions, as people read them. */
const permissionNames: Readonly<Record<string, string>> = {
  $update_team: "Rename the team",
  $delete_team: "Delete the team",
  $read_members: "See members",
  $remove_members: "Remove members",
  $invite_members: "Invite members",
  $manage_api_keys: "Manage team API keys",
  team_admin: "Team admin",
  team_member: "Team member"
}

/** A permission id as a name: the built-in ones by the table, others from their id (`billing_viewer` → "Billing viewer"). */
export const permissionName = (id: string): string => {
  const known = permissionNames[id]
  if (known !== undefined) return known
  const words = id.replace(/^\$/, "").replace(/[_-]+/g, " ").trim()
  return words === "" ? id : words[0]!.toUpperCase() + words.slice(1)
}

/** Whether the signed-in user holds a permission in a team (`usePermission`; `false` until known). */
const useCan = (teamId: string, permissionId: string): boolean => {
  const permission = usePermission(teamId, permissionId)
  return permission.status === "success" && permission.data
}

/** The teams page of the signed-in user. */
export const TeamsPage = (props: { readonly user: CurrentUser }) => {
  const teams = useTeams()
  const select = useShownMutation((teamId: string | null) => Users.updateCurrent({ selectedTeamId: teamId }))
  const create = useShownMutation((displayName: string) =>
    Effect.flatMap(Teams.create({ displayName }), (team) => Users.updateCurrent({ selectedTeamId: team.id }))
  )
  const [nameError, setNameError] = useState<string | undefined>(undefined)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const name = valueOf(form, "teamName").trim()
    setNameError(name === "" ? "Give the team a name." : undefined)
    if (name === "") return
    void create.run(name).then((exit) => {
      if (Exit.isSuccess(exit)) form.reset()
    })
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
          {teams.status === "success" ?
            (
              teams.data.length === 0 ? <p className="muted small">You are not in a team yet.</p> : (
                <ul className="list" aria-label="Your teams">
                  {teams.data.map((team) => (
                    <li key={team.id}>
                      <span className="item-text">
                        <span className="break">{team.displayName}</span> {team.id === selectedId ? <Badge tone="brand">Current</Badge> : null}
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
            ) :
            teams.status === "error" ?
            <ErrorMessage error={teams.error} /> :
            <Loading label="Loading teams…" />}
          <ErrorMessage error={select.error} />
          <form className="stack" style={{ marginTop: "1rem" }} onSubmit={submit} aria-label="Create a team" noValidate>
            <Field label="Team name" name="teamName" required maxLength={256} error={nameError} />
            <ErrorMessage error={create.error} />
            <div>
              <Button type="submit" pending={create.pending}>
                Create team
              </Button>
            </div>
          </form>
        </Section>
        {selectedId === null ?
          (
            <Section title="No team selected">
              <p className="muted">Create a team or switch to one of yours to manage it.</p>
            </Section>
          ) :
          <TeamDetails key={selectedId} teamId={selectedId} user={props.user} />}
      </div>
    </div>
  )
}

const InvitationsForMe = () => {
  const invitations = useStackQuery(TeamInvitations.listMine(), [])
  // the team just joined becomes the current one
  const accept = useShownMutation((invitation: { readonly id: string; readonly teamId: string }) =>
    TeamInvitations.acceptById(invitation.id).pipe(Effect.andThen(Users.updateCurrent({ selectedTeamId: invitation.teamId })))
  )
  if (invitations.status !== "success" || invitations.data.length === 0) return null
  return (
    <Alert kind="info">
      <div className="stack">
        {invitations.data.map((invitation) => (
          <div key={invitation.id} className="spread">
            <span>
              You are invited to join <strong>{invitation.teamDisplayName}</strong>.
            </span>
            <Button small pending={accept.pending} onClick={() => void accept.run({ id: invitation.id, teamId: invitation.teamId })}>
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
  // what the screen offers follows the user's permissions in the team (one cached list behind every hook)
  const canRename = useCan(teamId, "$update_team")
  const canDelete = useCan(teamId, "$delete_team")
  const canReadMembers = useCan(teamId, "$read_members")
  const canRemove = useCan(teamId, "$remove_members")
  const canInvite = useCan(teamId, "$invite_members")
  const canManageKeys = useCan(teamId, "$manage_api_keys")
  // granting needs server access: the app's backend does it for team admins (../appBackend.ts)
  const canManagePermissions = useCan(teamId, "team_admin")
  const leave = useShownMutation(() => Teams.leave(teamId).pipe(Effect.andThen(Users.updateCurrent({ selectedTeamId: null }))))
  if (team.status === "loading") return <Loading label="Loading the team…" />
  if (team.status === "error") return <ErrorMessage error={team.error} />
  return (
    <div className="stack">
      <Section title={team.data.displayName} description="The team you are working in.">
        <div className="stack">
          <div>
            <h3 className="small muted label">What you can do here</h3>
            {permissions.status === "success" ?
              (
                permissions.data.length === 0 ?
                  <p className="small muted">Nothing beyond being a member.</p> :
                  (
                    <ul className="badges" data-testid="team-permissions" aria-label="Your permissions">
                      {permissions.data.map((permission) => (
                        <li key={permission.id}>
                          <Badge tone={permission.id.startsWith("$") ? undefined : "brand"}>{permissionName(permission.id)}</Badge>
                        </li>
                      ))}
                    </ul>
                  )
              ) :
              permissions.status === "error" ?
              <ErrorMessage error={permissions.error} /> :
              <Loading label="Loading your permissions…" />}
          </div>
          {canRename ? <RenameTeam teamId={teamId} name={team.data.displayName} /> : null}
          <ErrorMessage error={leave.error} />
          <div className="row">
            <Button variant="secondary" small pending={leave.pending} onClick={() => void leave.run()}>
              Leave team
            </Button>
          </div>
        </div>
      </Section>
      {canReadMembers ? <MembersSection teamId={teamId} canRemove={canRemove} canManage={canManagePermissions} me={props.user.id} /> : null}
      {canInvite ? <InviteSection teamId={teamId} canRevoke={canRemove} /> : null}
      {canManageKeys ? <TeamApiKeysSection teamId={teamId} /> : null}
      {canDelete ? <DeleteTeamSection teamId={teamId} name={team.data.displayName} /> : null}
    </div>
  )
}

/** Deleting a team: a second step where the name is typed. */
const DeleteTeamSection = (props: { readonly teamId: string; readonly name: string }) => {
  const remove = useShownMutation(() => Teams.delete(props.teamId).pipe(Effect.andThen(Users.updateCurrent({ selectedTeamId: null }))))
  return (
    <Section title="Delete team" description="Deletes the team for everyone, with its invitations and API keys. This cannot be undone.">
      <ConfirmByTyping
        openLabel={`Delete ${props.name}…`}
        formLabel="Confirm team deletion"
        fieldLabel="Type the team's name to confirm"
        fieldName="confirmTeamName"
        expected={props.name}
        matches={(typed) => typed.trim() === props.name}
        confirmLabel="Delete the team for good"
        cancelLabel="Keep the team"
        action={remove}
      />
    </Section>
  )
}

const RenameTeam = (props: { readonly teamId: string; readonly name: string }) => {
  const rename = useShownMutation((displayName: string) => Teams.update(props.teamId, { displayName }))
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    void rename.run(valueOf(event.currentTarget, "displayName").trim())
  }
  return (
    <form className="stack" onSubmit={submit} aria-label="Rename team">
      <div className="row inline-form">
        <div className="grow">
          <Field label="Team name" name="displayName" defaultValue={props.name} required />
        </div>
        <Button type="submit" variant="secondary" pending={rename.pending}>
          Rename
        </Button>
      </div>
      <ErrorMessage error={rename.error} />
    </form>
  )
}

/** The permissions a team admin may grant or revoke on this screen. */
const grantable = ["team_admin", "$update_team", "$invite_members", "$remove_members", "$manage_api_keys", "$delete_team"] as const

/** A member's directly granted permissions, each a checkbox (through the app's backend). */
const MemberPermissions = (props: { readonly teamId: string; readonly userId: string; readonly name: string }) => {
  const granted = useStackQuery(memberPermissions(props.teamId, props.userId), [props.teamId, props.userId])
  const { refetch } = granted
  const change = useShownMutation((input: { readonly permissionId: string; readonly grant: boolean }) =>
    setMemberPermission({ teamId: props.teamId, userId: props.userId, ...input }).pipe(Effect.tap(() => Effect.sync(refetch)))
  )
  if (granted.status === "loading") return <Loading label="Loading permissions…" />
  if (granted.status === "error" && granted.data === undefined) return <ErrorMessage error={granted.error} />
  const held = new Set(granted.data ?? [])
  return (
    <fieldset className="permissions" aria-busy={granted.waiting || change.pending}>
      <legend>Permissions of {props.name}</legend>
      {grantable.map((permissionId) => (
        <label key={permissionId} className="checkbox">
          <input
            type="checkbox"
            checked={held.has(permissionId)}
            disabled={change.pending}
            onChange={(event) => void change.run({ permissionId, grant: event.currentTarget.checked })}
          />
          {permissionName(permissionId)}
        </label>
      ))}
      <p className="small muted">Only permissions granted directly are shown; a role such as Team admin includes others.</p>
      <ErrorMessage error={change.error ?? granted.error} />
    </fieldset>
  )
}

const MembersSection = (props: { readonly teamId: string; readonly canRemove: boolean; readonly canManage: boolean; readonly me: string }) => {
  const members = useTeamMembers(props.teamId)
  const [managing, setManaging] = useState<string | null>(null)
  const remove = useShownMutation((userId: string) => Teams.removeMember(props.teamId, userId))
  return (
    <Section title="Members">
      {members.status === "success" ?
        (
          <ul className="list" aria-label="Members">
            {members.data.map((member) => (
              <li key={member.userId}>
                <span className="item-text">
                  {member.displayName ?? <span className="muted">No display name</span>} {member.userId === props.me ? <Badge tone="brand">You</Badge> : null}
                </span>
                <span className="row actions">
                  {props.canManage ?
                    (
                      <Button
                        variant="ghost"
                        small
                        aria-expanded={managing === member.userId}
                        aria-label={`Permissions of ${member.displayName ?? "this member"}`}
                        onClick={() => setManaging(managing === member.userId ? null : member.userId)}
                      >
                        Permissions
                      </Button>
                    ) :
                    null}
                  {props.canRemove && member.userId !== props.me ?
                    (
                      <Button variant="ghost" small aria-label={`Remove ${member.displayName ?? "this member"}`} onClick={() => void remove.run(member.userId)}>
                        Remove
                      </Button>
                    ) :
                    null}
                </span>
                {managing === member.userId ?
                  <MemberPermissions teamId={props.teamId} userId={member.userId} name={member.displayName ?? "this member"} /> :
                  null}
              </li>
            ))}
          </ul>
        ) :
        members.status === "error" ?
        <ErrorMessage error={members.error} /> :
        <Loading label="Loading members…" />}
      <ErrorMessage error={remove.error} />
    </Section>
  )
}

const InviteSection = (props: { readonly teamId: string; readonly canRevoke: boolean }) => {
  const invitations = useTeamInvitations(props.teamId)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const send = useShownMutation((email: string) =>
    TeamInvitations.send({ teamId: props.teamId, email }).pipe(Effect.andThen(Effect.sync(() => setSentTo(email))))
  )
  const revoke = useShownMutation((id: string) => TeamInvitations.revoke(props.teamId, id))
  const [emailError, setEmailError] = useState<string | undefined>(undefined)
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    const email = valueOf(form, "inviteEmail").trim()
    const error = checkEmail(email)
    setEmailError(error)
    if (error !== undefined) return
    void send.run(email).then((exit) => {
      if (Exit.isSuccess(exit)) form.reset()
    })
  }
  return (
    <Section title="Invitations" description="Invite people by e-mail; they join when they open the link.">
      <form className="row inline-form" onSubmit={submit} aria-label="Invite a member" noValidate>
        <div className="grow">
          <Field label="E-mail to invite" name="inviteEmail" type="email" autoComplete="email" required error={emailError} />
        </div>
        <Button type="submit" pending={send.pending}>
          Send invitation
        </Button>
      </form>
      {sentTo === null || send.pending ? null : <Alert kind="success">Invitation sent to {sentTo}.</Alert>}
      <ErrorMessage error={send.error ?? revoke.error} />
      {invitations.status === "success" ?
        (
          invitations.data.length === 0 ? null : (
            <ul className="list" aria-label="Pending invitations" style={{ marginTop: "1rem" }}>
              {invitations.data.map((invitation) => (
                <li key={invitation.id}>
                  <span className="item-text">
                    <span className="break">{invitation.recipientEmail}</span>{" "}
                    <span className="small muted">expires {invitation.expiresAt.toLocaleDateString()}</span>
                  </span>
                  {props.canRevoke ?
                    (
                      <Button
                        variant="ghost"
                        small
                        aria-label={`Revoke the invitation of ${invitation.recipientEmail}`}
                        onClick={() => void revoke.run(invitation.id)}
                      >
                        Revoke
                      </Button>
                    ) :
                    null}
                </li>
              ))}
            </ul>
          )
        ) :
        invitations.status === "error" ?
        <ErrorMessage error={invitations.error} /> :
        null}
    </Section>
  )
}

const TeamApiKeysSection = (props: { readonly teamId: string }) => {
  const keys = useTeamApiKeys(props.teamId)
  const [created, setCreated] = useState<{ readonly id: string; readonly value: string } | null>(null)
  const create = useShownMutation((description: string) =>
    TeamApiKeys.create({ owner: { teamId: props.teamId }, description, expiresAt: null }).pipe(
      Effect.tap((key) => Effect.sync(() => setCreated({ id: key.id, value: Redacted.value(key.value) })))
    )
  )
  // the "copy it now" banner goes with its key
  const revoke = useShownMutation((id: string) =>
    TeamApiKeys.revoke(props.teamId, id).pipe(Effect.andThen(Effect.sync(() => setCreated((shown) => (shown?.id === id ? null : shown)))))
  )
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = event.currentTarget
    void create.run(valueOf(form, "keyDescription").trim()).then((exit) => {
      if (Exit.isSuccess(exit)) form.reset()
    })
  }
  return (
    <Section title="Team API keys" description="Keys that act for the team. Shown once, when created.">
      {created === null ? null : (
        <Alert kind="success">
          New team key — copy it now:
          <div className="secret" data-testid="new-team-api-key">
            {created.value}
          </div>
        </Alert>
      )}
      <ApiKeyList keys={keys} label="Team API keys" emptyText="No team keys yet." loadingText="Loading team keys…" onRevoke={(id) => void revoke.run(id)} />
      <ErrorMessage error={create.error ?? revoke.error} />
      <form className="row inline-form" onSubmit={submit} aria-label="Create a team API key">
        <div className="grow">
          <Field label="Team key description" name="keyDescription" required />
        </div>
        <Button type="submit" variant="secondary" pending={create.pending}>
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
  // the team just joined becomes the current one, then the teams page shows it
  const accept = useShownMutation((teamId: string) =>
    TeamInvitations.accept(code).pipe(
      Effect.andThen(Users.updateCurrent({ selectedTeamId: teamId })),
      Effect.andThen(Effect.sync(() => navigate("/teams")))
    )
  )
  if (code === "") {
    return (
      <AuthCard title="Team invitation">
        <Alert kind="error">This link has no invitation code. Open the link of the e-mail you received.</Alert>
      </AuthCard>
    )
  }
  return (
    <AuthCard title="Team invitation">
      {details.status === "loading" ? <Loading label="Checking the invitation…" /> : details.status === "error" ?
        (
          <div className="stack">
            <ErrorMessage
              error={details.error}
              overrides={{
                InvalidArgument: "This invitation link is not valid. Ask for a new invitation.",
                VerificationCodeNotFound: "This invitation link is not valid. Ask for a new invitation.",
                VerificationCodeExpired: "This invitation has expired. Ask for a new one.",
                VerificationCodeAlreadyUsed: "This invitation was already used."
              }}
            />
            <Link className="button secondary block" to="/teams">
              Go to your teams
            </Link>
          </div>
        ) :
        (
          <div className="stack">
            <p className="center">
              You are invited to join <strong>{details.data!.teamDisplayName}</strong>.
            </p>
            <ErrorMessage error={accept.error} />
            <Button block pending={accept.pending} onClick={() => void accept.run(details.data!.teamId)}>
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
