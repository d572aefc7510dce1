/**
 * One contender's walks over every user of the streaming measurement, in a process of its own
 * (bundled by `bench/lib/stream.ts` into one ESM file, packages external). The server is the
 * static server in another process answering recorded `GET /users` pages of the service's shape.
 * argv: side (`raw` | `floor` | `ours` | `official`), config file, measured walks, warm-up walks.
 * - raw: `fetch` page by page, `JSON.parse`, each user mapped by hand to camelCase with `Date`s;
 * - floor: the smallest Effect program doing the same job (`FetchHttpClient`, one `GET` per page,
 *   the page decoded with the same `UserPage` schema as ours);
 * - ours: `ServerUsers.stream({ limit })` run to the end;
 * - official: `StackServerApp.listUsers({ limit, cursor })` page by page.
 * Prints one JSON line: users per walk and CPU time (user + system) of the measured walks.
 */
import { Effect, ManagedRuntime, Schema, Stream } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import { readFileSync } from "node:fs"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import { UserPage } from "../../src/users/internal/serverUsers.js"
import { officialServerApp, ourServerRuntime, serverHeaders } from "./project.js"
import type { ProjectConfig } from "./project.js"

interface Config extends ProjectConfig {
  readonly pageSize: number
}

const [side, configPath, measuredText, warmupText] = process.argv.slice(2)
const config = JSON.parse(readFileSync(configPath!, "utf8")) as Config
const measured = Number(measuredText)
const warmup = Number(warmupText)

/** The headers this SDK sends with server access (raw and floor send the same). */
const headers = serverHeaders(config, "nonce")

const pageUrl = (cursor: string | null) =>
  `${config.baseUrl}/api/v1/users?limit=${config.pageSize}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`

type WireUser = Record<string, unknown> & {
  readonly selected_team: (Record<string, unknown> & { readonly created_at_millis: number }) | null
  readonly oauth_providers: ReadonlyArray<{ readonly id: string; readonly account_id: string; readonly email?: string | null }>
}

/** raw: the user mapped by hand, the fields ours decodes, no checks. */
const mapUser = (u: WireUser) => ({
  id: u["id"],
  displayName: u["display_name"],
  primaryEmail: u["primary_email"],
  primaryEmailVerified: u["primary_email_verified"],
  profileImageUrl: u["profile_image_url"],
  signedUpAt: new Date(u["signed_up_at_millis"] as number),
  clientMetadata: u["client_metadata"] ?? null,
  clientReadOnlyMetadata: u["client_read_only_metadata"] ?? null,
  hasPassword: u["has_password"],
  emailAuthEnabled: u["auth_with_email"],
  otpAuthEnabled: u["otp_auth_enabled"],
  passkeyAuthEnabled: u["passkey_auth_enabled"],
  isMultiFactorRequired: u["requires_totp_mfa"],
  oauthProviders: u.oauth_providers.map((p) => ({ id: p.id, accountId: p.account_id, email: p.email })),
  selectedTeamId: u["selected_team_id"] ?? null,
  isAnonymous: u["is_anonymous"] ?? false,
  isRestricted: u["is_restricted"] ?? false,
  restrictedReason: u["restricted_reason"] ?? null,
  restrictedByAdmin: u["restricted_by_admin"] ?? false,
  restrictedByAdminReason: u["restricted_by_admin_reason"] ?? null,
  selectedTeam: u.selected_team === null
    ? null
    : {
      id: u.selected_team["id"],
      displayName: u.selected_team["display_name"],
      profileImageUrl: u.selected_team["profile_image_url"],
      clientMetadata: u.selected_team["client_metadata"] ?? null,
      clientReadOnlyMetadata: u.selected_team["client_read_only_metadata"] ?? null,
      createdAt: new Date(u.selected_team.created_at_millis),
      serverMetadata: u.selected_team["server_metadata"] ?? null
    },
  primaryEmailAuthEnabled: u["primary_email_auth_enabled"] ?? false,
  serverMetadata: u["server_metadata"] ?? null,
  lastActiveAt: new Date(u["last_active_at_millis"] as number),
  restrictedByAdminPrivateDetails: u["restricted_by_admin_private_details"] ?? null,
  countryCode: u["country_code"] ?? null
})

const makeWalk = async (): Promise<() => Promise<number>> => {
  if (side === "raw") {
    return async () => {
      let cursor: string | null = null
      let count = 0
      do {
        const response = await fetch(pageUrl(cursor), { headers })
        const page = (await response.json()) as { items: Array<WireUser>; pagination: { next_cursor: string | null } }
        count += page.items.map(mapUser).length
        cursor = page.pagination.next_cursor
      } while (cursor !== null)
      return count
    }
  }
  if (side === "floor") {
    const runtime = ManagedRuntime.make(FetchHttpClient.layer)
    const decode = Schema.decodeUnknownEffect(UserPage)
    const walk = Effect.gen(function* () {
      const client = yield* HttpClient.HttpClient
      let cursor: string | null = null
      let count = 0
      do {
        const response: HttpClientResponse.HttpClientResponse = yield* client.execute(
          HttpClientRequest.setHeaders(HttpClientRequest.get(pageUrl(cursor)), headers)
        )
        const page: (typeof UserPage)["Type"] = yield* Effect.flatMap(response.json, decode)
        count += page.items.length
        cursor = page.pagination.nextCursor
      } while (cursor !== null)
      return count
    })
    return () => runtime.runPromise(walk)
  }
  if (side === "ours") {
    const runtime = ourServerRuntime(config)
    return () => runtime.runPromise(Stream.runCount(ServerUsers.stream({ limit: config.pageSize })))
  }
  const app = await officialServerApp<{
    listUsers(options: { limit: number; cursor?: string }): Promise<Array<unknown> & { nextCursor: string | null }>
  }>(config)
  return async () => {
    let cursor: string | undefined
    let count = 0
    do {
      const page = await app.listUsers({ limit: config.pageSize, ...(cursor === undefined ? {} : { cursor }) })
      count += page.length
      cursor = page.nextCursor ?? undefined
    } while (cursor !== undefined)
    return count
  }
}

const walk = await makeWalk()
let users = 0
for (let i = 0; i < warmup; i++) users = await walk()
const cpuBefore = process.cpuUsage()
for (let i = 0; i < measured; i++) users = await walk()
const cpu = process.cpuUsage(cpuBefore)
process.stdout.write(`${JSON.stringify({ side, users, measured, warmup, cpuMicros: cpu.user + cpu.system })}\n`)
process.exit(0)
