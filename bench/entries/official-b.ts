/**
 * Bundle entry (b), official SDK: (a) plus password sign-in and sign-up, list and create teams,
 * update the user.
 */
import { StackClientApp } from "@stackframe/js"

const app = new StackClientApp({
  projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f",
  publishableClientKey: "pck_bench",
  tokenStore: "cookie"
})

export const getCurrentUser = () => app.getUser()
export const signIn = (email: string, password: string) => app.signInWithCredential({ email, password })
export const signUp = (email: string, password: string) => app.signUpWithCredential({ email, password })
export const listTeams = async () => (await app.getUser({ or: "throw" })).listTeams()
export const createTeam = async (displayName: string) => (await app.getUser({ or: "throw" })).createTeam({ displayName })
export const rename = async (displayName: string) => (await app.getUser({ or: "throw" })).update({ displayName })
