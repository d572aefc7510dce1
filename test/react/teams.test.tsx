// @vitest-environment happy-dom
/**
 * The team hooks: a team created through a mutation shows up in every `useTeams`, one request
 * for all of them; `usePermission`, `useTeam`, `useTeamMembers`, `useTeamInvitations` and
 * `useTeamApiKeys` read the team the user created.
 */
import { act, cleanup, render, screen, waitFor } from "@testing-library/react"
import { Effect } from "effect"
import { version as reactVersion } from "react"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import * as Emulator from "../../src/emulator/index.js"
import * as Teams from "../../src/teams/Teams.js"
import { StackProvider, usePermission, useStackMutation, useTeam, useTeamApiKeys, useTeamInvitations, useTeamMembers, useTeams } from "../../react/index.js"
import { makeApp } from "./support.js"
import type { App } from "./support.js"

let app: App

beforeEach(async () => {
  const emulator = await Effect.runPromise(Emulator.make({ passwordHashIterations: 1000 }))
  const project = await Effect.runPromise(
    emulator.createProject({ config: { clientTeamCreationEnabled: true, allowTeamApiKeys: true } })
  )
  app = await makeApp(emulator, project)
})
afterEach(async () => {
  cleanup()
  await app.dispose()
})

const TeamNames = (props: { readonly id: number }) => {
  const teams = useTeams()
  return (
    <span data-testid={`teams-${props.id}`}>
      {teams.status === "success" ? teams.data.map((team) => team.displayName).join(",") || "none" : teams.status}
    </span>
  )
}

const CreateTeam = () => {
  const create = useStackMutation((name: string) => Teams.create({ displayName: name }))
  return (
    <button type="button" onClick={() => void create.run("Analytical Engines")}>
      create
    </button>
  )
}

const TeamDetails = (props: { readonly teamId: string }) => {
  const team = useTeam(props.teamId)
  const admin = usePermission(props.teamId, "team_admin")
  const members = useTeamMembers(props.teamId)
  const invitations = useTeamInvitations(props.teamId)
  const keys = useTeamApiKeys(props.teamId)
  const text = [
    team.status === "success" ? team.data.displayName : team.status,
    admin.status === "success" ? String(admin.data) : admin.status,
    members.status === "success" ? String(members.data.length) : members.status,
    invitations.status === "success" ? String(invitations.data.length) : invitations.status,
    keys.status === "success" ? String(keys.data.length) : keys.status
  ].join("|")
  return <span data-testid="details">{text}</span>
}

describe(`React ${reactVersion} team hooks`, () => {
  it("a team created through a mutation shows in every useTeams (one request for them all)", async () => {
    await app.signUp("ada@example.com")
    render(
      <StackProvider runtime={app.runtime}>
        <TeamNames id={0} />
        <TeamNames id={1} />
        <CreateTeam />
      </StackProvider>
    )
    await waitFor(() => expect(screen.getByTestId("teams-0").textContent).toBe("none"))
    expect(app.count("GET /teams")).toBe(1)
    act(() => screen.getByRole("button").click())
    await waitFor(() => {
      for (const id of [0, 1]) expect(screen.getByTestId(`teams-${id}`).textContent).toBe("Analytical Engines")
    })
    expect(app.count("GET /teams")).toBe(2)
  })

  it("useTeam, usePermission, useTeamMembers, useTeamInvitations and useTeamApiKeys read the team", async () => {
    await app.signUp("ada@example.com")
    const team = await app.runtime.runPromise(Teams.create({ displayName: "Analytical Engines" }))
    render(
      <StackProvider runtime={app.runtime}>
        <TeamDetails teamId={team.id} />
      </StackProvider>
    )
    await waitFor(() => expect(screen.getByTestId("details").textContent).toBe("Analytical Engines|true|1|0|0"))
  })
})
