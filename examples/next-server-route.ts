/**
 * A server route that reads the signed-in user with server access, written the way a Next.js App
 * Router route handler is (`app/api/me/route.ts`) but without depending on Next: the framework's
 * cookie store is passed in as a function, like `cookies` from `next/headers`.
 *
 * - One `ManagedRuntime` per app (transport, secret server key), built once.
 * - Per request, `RequestSession.layerSession` picks the user's tokens: the `x-stack-auth` header
 *   when the app's own browser code forwarded them (`currentAuthHeaders`), else the SDK's cookies.
 *   A refresh during the request writes the new access token back into the cookies.
 * - `ServerUsers.getCurrent()` (`GET /users/me` with server access) returns the server view
 *   of the user, or none when the request carries no live session.
 *
 * In a Next.js app:
 *
 * ```ts
 * // app/api/me/route.ts
 * import { cookies } from "next/headers"
 * import { makeMeRoute } from "./next-server-route"
 *
 * export const { GET } = makeMeRoute(
 *   { projectId: process.env.STACK_PROJECT_ID!, secretServerKey: process.env.STACK_SECRET_SERVER_KEY! },
 *   cookies
 * )
 * ```
 *
 * `test/e2e/serverRendering.test.ts` runs this route against the emulator over HTTP.
 */
import { Effect, ManagedRuntime, Option } from "effect"
import { ServerUsers, Stack } from "stack-auth-effect"
import { type CookieTokenStore, RequestSession } from "stack-auth-effect/next"

/** What the route needs: the server layer's options, and whether the site is served over HTTPS. */
export interface MeRouteOptions extends Stack.ServerOptions {
  /** HTTPS site (`__Host-` refresh cookie); default: the browser's `stack-is-https` marker cookie. */
  readonly secure?: boolean | undefined
}

/** The JSON body of the route. */
export type MeResponse =
  | {
    readonly signedIn: true
    readonly id: string
    readonly primaryEmail: string | null
    readonly displayName: string | null
  }
  | { readonly signedIn: false }
  | { readonly error: string; readonly message: string }

const json = (status: number, body: MeResponse): Response => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

/**
 * Builds the `GET` handler and a `dispose` that releases the app-wide runtime.
 * Answers 200 with the user, 401 `{ signedIn: false }` when nobody is signed in, 400 for a
 * malformed `x-stack-auth` header, 502 when the service could not be reached or answered badly.
 */
export const makeMeRoute = (
  options: MeRouteOptions,
  cookies: () => CookieTokenStore.FrameworkCookies | Promise<CookieTokenStore.FrameworkCookies>
) => {
  const runtime = ManagedRuntime.make(Stack.layerServer(options))

  const GET = async (request: Request): Promise<Response> => {
    const store = await cookies()
    const program = ServerUsers.getCurrent().pipe(
      Effect.map(
        Option.match({
          onNone: () => json(401, { signedIn: false }),
          onSome: (user) =>
            json(200, {
              signedIn: true,
              id: user.id,
              primaryEmail: user.primaryEmail,
              // only what the page shows: server metadata stays on the server
              displayName: user.displayName
            })
        })
      ),
      Effect.provide(RequestSession.layerSession({ request, cookies: store }, { projectId: options.projectId, secure: options.secure })),
      Effect.catch((error) => Effect.succeed(json(error._tag === "TokenStoreError" ? 400 : 502, { error: error._tag, message: error.message })))
    )
    return runtime.runPromise(program)
  }

  return { GET, dispose: () => runtime.dispose() }
}
