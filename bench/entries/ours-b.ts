/**
 * Bundle entry (b), this SDK: (a) plus password sign-in and sign-up, list and create teams,
 * update the user. `rename` resolves to the updated user (the official one to nothing): the app
 * code here imports nothing else from `effect`, as the official entry imports nothing else; an
 * `Effect.asVoid` through `import { Effect } from "effect"` alone made esbuild keep the whole
 * `Effect` namespace (12.5 KB gz, measured 2026-11-24), a cost of the app's own use of Effect.
 * Imports only what the package exports (`Teams` from the main entry, as an app must).
 */
import { ManagedRuntime } from "effect"
import { Password, Stack, Teams, Users } from "stack-auth-effect"

const runtime = ManagedRuntime.make(
  Stack.layerClient({ projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f", publishableClientKey: "pck_bench" })
)

export const getCurrentUser = () => runtime.runPromise(Users.getCurrent())
export const signIn = (email: string, password: string) => runtime.runPromise(Password.signInWithPassword({ email, password }))
export const signUp = (email: string, password: string) => runtime.runPromise(Password.signUpWithPassword({ email, password }))
export const listTeams = () => runtime.runPromise(Teams.listMine())
export const createTeam = (displayName: string) => runtime.runPromise(Teams.create({ displayName }))
export const rename = (displayName: string) => runtime.runPromise(Users.updateCurrent({ displayName }))
