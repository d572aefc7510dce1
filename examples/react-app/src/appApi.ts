/**
 * Calls to the app's own backend (../appBackend.ts, on this origin under `/app-api/`): what needs
 * server access, here granting and revoking a team member's permissions. Each call carries the
 * signed-in user's access token (`Session.requestTokens`: refreshed first when it is about to
 * expire), and the backend decides with server access whether this user may do it.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { QueryCache, Session } from "stack-auth-effect"

/** The backend refused or could not be reached: `code` names why (`PermissionDenied`, `NotSignedIn`, `Unreachable`…). */
export class AppApiError extends Data.TaggedError("AppApiError")<{
  readonly status: number
  readonly code: string
  readonly message: string
}> {}

const permissionsPath = (teamId: string, userId: string) => `/app-api/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(userId)}/permissions`

const call = (method: "GET" | "POST" | "DELETE", path: string) =>
  Effect.gen(function* () {
    const session = yield* Session.Session
    const tokens = yield* session.requestTokens
    if (Option.isNone(tokens.accessToken)) {
      return yield* Effect.fail(new AppApiError({ status: 401, code: "NotSignedIn", message: "No user is signed in." }))
    }
    const token = Redacted.value(tokens.accessToken.value)
    const response = yield* Effect.tryPromise({
      try: (signal) => fetch(path, { method, headers: { authorization: `Bearer ${token}` }, signal }),
      catch: () => new AppApiError({ status: 0, code: "Unreachable", message: "The app's backend did not answer." })
    })
    const body = (yield* Effect.tryPromise({
      try: () => response.json() as Promise<unknown>,
      catch: () => new AppApiError({ status: response.status, code: "InvalidResponse", message: "The app's backend answered something else than JSON." })
    })) as { readonly permissions?: ReadonlyArray<string>; readonly error?: { readonly code?: string; readonly message?: string } }
    if (!response.ok || body.permissions === undefined) {
      return yield* Effect.fail(
        new AppApiError({ status: response.status, code: body.error?.code ?? "InvalidResponse", message: body.error?.message ?? "No permission list." })
      )
    }
    return body.permissions
  })

/** The permissions granted directly to a team member (not those contained in them). */
export const memberPermissions = (teamId: string, userId: string) => call("GET", permissionsPath(teamId, userId))

/**
 * Grants (`grant: true`) or revokes a team permission of a member; returns the member's direct
 * permissions afterwards. The SDK's cached permission reads of the team are refreshed (the user
 * may have changed their own).
 */
export const setMemberPermission = (input: { readonly teamId: string; readonly userId: string; readonly permissionId: string; readonly grant: boolean }) =>
  call(input.grant ? "POST" : "DELETE", `${permissionsPath(input.teamId, input.userId)}/${encodeURIComponent(input.permissionId)}`).pipe(
    Effect.tap(() => QueryCache.invalidate(["team-permissions", input.teamId]))
  )
