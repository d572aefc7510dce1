/**
 * Issue 16, "done means": `npx stack-auth-emulator` serves the official `@stackframe/js` 2.8.108
 * through sign-up, sign-in, teams, permissions, API keys, project config, owned projects,
 * notification categories and its cross-domain hand-over request —
 * the official SDK driven against the emulator's Node server over real HTTP. The official SDK is
 * a dependency of the bench's own package (`npm --prefix bench install`, done by CI): without it
 * these tests are skipped, as test/bench/bench.test.ts does.
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { defaults } from "../../src/emulator/Defaults.js"
import type { RunningServer } from "../../src/emulator/server.js"
import { startServer } from "../e2e/support.js"

const officialEntry = join(import.meta.dirname, "../../bench/node_modules/@stackframe/js/dist/esm/index.js")
/** Whether the bench's dependencies (the official SDK) are installed. */
const installed = existsSync(officialEntry)

/** The parts of the official SDK this test uses (its own types live in bench/node_modules). */
interface Official {
  readonly StackClientApp: new(options: Record<string, unknown>) => any
  readonly StackServerApp: new(options: Record<string, unknown>) => any
  readonly StackAdminApp: new(options: Record<string, unknown>) => any
}

let official: Official
let server: RunningServer
let stop: () => Promise<void>

beforeAll(async () => {
  if (!installed) return
  official = (await import(pathToFileURL(officialEntry).href)) as Official
  const started = await startServer({ passwordHashIterations: 1000 })
  server = started.server
  stop = started.stop
})
afterAll(async () => {
  if (installed) await stop()
})

const project = (which: "demo" | "internal") => (which === "demo" ? server.emulator.demo : server.emulator.internal)

const clientApp = (which: "demo" | "internal" = "demo") =>
  new official.StackClientApp({
    projectId: project(which).projectId,
    publishableClientKey: project(which).publishableClientKey,
    baseUrl: server.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true
  })

const serverApp = () =>
  new official.StackServerApp({
    projectId: project("demo").projectId,
    publishableClientKey: project("demo").publishableClientKey,
    secretServerKey: project("demo").secretServerKey,
    baseUrl: server.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true
  })

const adminApp = () =>
  new official.StackAdminApp({
    projectId: project("demo").projectId,
    publishableClientKey: project("demo").publishableClientKey,
    secretServerKey: project("demo").secretServerKey,
    superSecretAdminKey: project("demo").superSecretAdminKey,
    baseUrl: server.baseUrl,
    tokenStore: "memory",
    noAutomaticPrefetch: true
  })

describe.skipIf(!installed)("the official @stackframe/js against the emulator over HTTP (bench dependencies installed)", () => {
  it("signs up, signs out and in again; a wrong password is the typed EmailPasswordMismatch", async () => {
    const app = clientApp()
    const signedUp = await app.signUpWithCredential({
      email: "official.user@example.com",
      password: "correct horse battery",
      noRedirect: true,
      noVerificationCallback: true
    })
    expect(signedUp.status).toBe("ok")
    const user = await app.getUser({ or: "throw" })
    expect(user.primaryEmail).toBe("official.user@example.com")
    await user.signOut({ redirectUrl: "http://localhost/" }).catch(() => undefined)

    const again = clientApp()
    const wrong = await again.signInWithCredential({ email: "official.user@example.com", password: "wrong password 1", noRedirect: true })
    expect(wrong.status).toBe("error")
    expect(wrong.error.errorCode).toBe("EMAIL_PASSWORD_MISMATCH")
    const right = await again.signInWithCredential({ email: "official.user@example.com", password: "correct horse battery", noRedirect: true })
    expect(right.status).toBe("ok")
    expect((await again.getUser({ or: "throw" })).id).toBe(user.id)
  })

  it("teams and permissions: a created team lists, its creator holds team_admin, a server app sees the member", async () => {
    const app = clientApp()
    await app.signUpWithCredential({ email: "official.teams@example.com", password: "correct horse battery", noRedirect: true, noVerificationCallback: true })
    const user = await app.getUser({ or: "throw" })
    const team = await user.createTeam({ displayName: "Official Team" })
    expect((await user.listTeams()).map((t: { id: string }) => t.id)).toContain(team.id)
    expect(await user.hasPermission(team, "team_admin")).toBe(true)
    expect(await user.hasPermission(team, "$update_team")).toBe(true)

    const serverTeam = await serverApp().getTeam(team.id)
    expect(serverTeam.displayName).toBe("Official Team")
    expect((await serverTeam.listUsers()).map((member: { id: string }) => member.id)).toEqual([user.id])
  })

  it("API keys: a user key is created, listed, and checked by the server", async () => {
    const app = clientApp()
    await app.signUpWithCredential({ email: "official.keys@example.com", password: "correct horse battery", noRedirect: true, noVerificationCallback: true })
    const user = await app.getUser({ or: "throw" })
    const key = await user.createApiKey({ description: "official", expiresAt: null })
    expect(typeof key.value).toBe("string")
    expect((await user.listApiKeys()).map((listed: { id: string }) => listed.id)).toContain(key.id)
    const checked = await serverApp().getUser({ apiKey: key.value })
    expect(checked?.id).toBe(user.id)
  })

  it("project config: updateConfig turns sign-up off (the next sign-up is refused with SIGN_UP_NOT_ENABLED) and back on", async () => {
    const admin = adminApp()
    const current = await admin.getProject()
    await current.updateConfig({ "auth.allowSignUp": false })
    // the official SDK throws this known error (it is not in signUpWithCredential's Result)
    const refused = await clientApp()
      .signUpWithCredential({ email: "official.refused@example.com", password: "correct horse battery", noRedirect: true, noVerificationCallback: true })
      .then(() => undefined, (error: { errorCode?: string }) => error)
    expect(refused?.errorCode).toBe("SIGN_UP_NOT_ENABLED")
    await current.updateConfig({ "auth.allowSignUp": true })
    const config = await current.getConfig()
    expect(config.auth.allowSignUp).toBe(true)
    const allowed = await clientApp().signUpWithCredential({
      email: "official.allowed@example.com",
      password: "correct horse battery",
      noRedirect: true,
      noVerificationCallback: true
    })
    expect(allowed.status).toBe("ok")
  })

  it("owned projects: a dashboard user of the internal project creates a project with their personal team and lists it", async () => {
    const app = clientApp("internal")
    const signedUp = await app.signUpWithCredential({
      email: "official.owner@example.com",
      password: "correct horse battery",
      noRedirect: true,
      noVerificationCallback: true
    })
    expect(signedUp.status).toBe("ok")
    const user = await app.getUser({ or: "throw" })
    const teamId = user.selectedTeam?.id ?? (await user.listTeams())[0]?.id
    expect(teamId).toEqual(expect.any(String))
    const created = await user.createProject({ displayName: "Official Owned", teamId })
    expect(created.displayName).toBe("Official Owned")
    expect((await user.listOwnedProjects()).map((owned: { id: string }) => owned.id)).toContain(created.id)
    expect(defaults.internal.projectId).toBe("internal")
  })

  it("notification categories: the user lists both, turns Marketing off with category.setEnabled, and a server app sees it off", async () => {
    const app = clientApp()
    const signedUp = await app.signUpWithCredential({
      email: "official.categories@example.com",
      password: "correct horse battery",
      noRedirect: true,
      noVerificationCallback: true
    })
    expect(signedUp.status).toBe("ok")
    const user = await app.getUser({ or: "throw" })
    const categories: ReadonlyArray<{ name: string; enabled: boolean; canDisable: boolean; setEnabled: (enabled: boolean) => Promise<void> }> = await user
      .listNotificationCategories()
    expect(categories.map((category) => [category.name, category.enabled, category.canDisable])).toEqual([
      ["Transactional", true, false],
      ["Marketing", true, true]
    ])
    await categories.find((category) => category.name === "Marketing")!.setEnabled(false)
    const after: ReadonlyArray<{ name: string; enabled: boolean }> = await user.listNotificationCategories()
    expect(after.map((category) => category.enabled)).toEqual([true, false])
    const seenByServer: ReadonlyArray<{ name: string; enabled: boolean }> = await (await serverApp().getUser(user.id)).listNotificationCategories()
    expect(seenByServer.map((category) => category.enabled)).toEqual([true, false])
  })

  it("cross-domain hand-over: the official client's own request (its internal _createCrossDomainAuthRedirectUrl) gets a redirect with a code and the state", async () => {
    const app = clientApp()
    const signedUp = await app.signUpWithCredential({
      email: "official.cross@example.com",
      password: "correct horse battery",
      noRedirect: true,
      noVerificationCallback: true
    })
    expect(signedUp.status).toBe("ok")
    const create = Reflect.get(app, "_createCrossDomainAuthRedirectUrl") as (options: Record<string, unknown>) => Promise<string>
    const redirectUrl = await create.call(app, {
      redirectUri: "http://localhost:3001/handler/oauth-callback",
      state: "official-state",
      codeChallenge: "xf6HY7PIgoaCf_eMniSt-45brYE2J_05C9BnfIbueik",
      afterCallbackRedirectUrl: "http://localhost:3001/after",
      awaitPendingAuthResolutions: false
    })
    const target = new URL(redirectUrl)
    expect(`${target.origin}${target.pathname}`).toBe("http://localhost:3001/handler/oauth-callback")
    expect(target.searchParams.get("state")).toBe("official-state")
    expect(target.searchParams.get("code")).toEqual(expect.any(String))
  })

  it("OAuth provider connections: createOAuthProvider links an account (Result ok), the same account for another user is the Result error OAuthProviderAccountIdAlreadyUsedForSignIn, provider.update and delete work", async () => {
    const server = serverApp()
    const ada = await server.createUser({ primaryEmail: "official.links.ada@example.com" })
    const bob = await server.createUser({ primaryEmail: "official.links.bob@example.com" })
    const link = { providerConfigId: "github", accountId: "official-gh-1", email: "ada@github.example", allowSignIn: true, allowConnectedAccounts: true }
    const created = await server.createOAuthProvider({ ...link, userId: ada.id })
    expect(created.status).toBe("ok")
    expect(created.data).toMatchObject({ type: "github", userId: ada.id, accountId: "official-gh-1", allowSignIn: true })
    const taken = await server.createOAuthProvider({ ...link, userId: bob.id })
    expect(taken.status).toBe("error")
    expect(taken.error.errorCode).toBe("OAUTH_PROVIDER_ACCOUNT_ID_ALREADY_USED_FOR_SIGN_IN")
    const updated = await created.data.update({ allowConnectedAccounts: false })
    expect(updated.status).toBe("ok")
    const listed: ReadonlyArray<{ id: string; allowConnectedAccounts: boolean }> = await ada.listOAuthProviders()
    expect(listed.map((provider) => [provider.id, provider.allowConnectedAccounts])).toEqual([[created.data.id, false]])
    await created.data.delete()
    expect(await ada.listOAuthProviders()).toEqual([])
  })
})
