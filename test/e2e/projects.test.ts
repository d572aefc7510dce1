/**
 * End to end over real HTTP against the emulator server: the demo project's admin view and config
 * change with the super secret admin key, and with an admin access token: the seeded owner signs
 * in on the `internal` project, and that session's access token administers the demo project
 * (`Access.layerAdminAccessToken`); internal API keys created and revoked over HTTP.
 */
import { Context, Effect, Layer, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import * as Access from "../../src/core/Access.js"
import { defaults } from "../../src/emulator/Defaults.js"
import { Password, Stack } from "../../src/index.js"
import * as InternalApiKeys from "../../src/projects/InternalApiKeys.js"
import * as ProductionMode from "../../src/projects/ProductionMode.js"
import * as Projects from "../../src/projects/Projects.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import { Session } from "../../src/session/Session.js"
import { accessTokenOf } from "../projects/support.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer({ demo: { config: { clientTeamCreationEnabled: false } } })

const client = (projectId: string) => {
  const fetch = countingFetch()
  return { layer: Stack.layerClient({ projectId, baseUrl: main.server.baseUrl, httpClient: fetch.layer }), count: fetch.count }
}

describe("projects over HTTP", () => {
  it("admin key: read the admin view, change the config, the client view follows", async () => {
    const demo = main.server.emulator.demo
    const admin = Stack.layerAdmin({
      projectId: demo.projectId,
      baseUrl: main.server.baseUrl,
      httpClient: countingFetch().layer,
      superSecretAdminKey: demo.superSecretAdminKey
    })
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        const before = yield* AdminProjects.getCurrent()
        const after = yield* AdminProjects.updateCurrent({
          config: { clientTeamCreationEnabled: true, domains: [{ domain: "http://localhost:3000", handlerPath: "/handler" }] }
        })
        const view = yield* Projects.getCurrent()
        return { before, after, view }
      }).pipe(Effect.provide(admin))
    )
    expect(result.before.config.clientTeamCreationEnabled).toBe(false)
    expect(result.after.config.clientTeamCreationEnabled).toBe(true)
    expect(result.view.config.domains).toEqual([{ domain: "http://localhost:3000", handlerPath: "/handler" }])
    expect(ProductionMode.check(result.after).map((p) => p.message)).toEqual([
      "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      "Localhost domains are not allowed to be trusted in production mode: http://localhost:3000"
    ])
  })

  it("admin access token: the seeded owner signed in on internal reads and patches the demo project's config", async () => {
    const demo = main.server.emulator.demo
    const internal = client("internal")
    const demoClient = client(demo.projectId)
    const program = Effect.scoped(
      Effect.gen(function* () {
        const context = yield* Layer.build(internal.layer)
        yield* Password.signInWithPassword({ email: defaults.internalOwner.email, password: defaults.internalOwner.password }).pipe(
          Effect.provide(context)
        )
        const owned = yield* Projects.listOwned().pipe(Effect.provide(context))
        const admin = Layer.merge(demoClient.layer, Access.layerAdminAccessToken(accessTokenOf(Context.get(context, Session))))
        const read = yield* AdminProjects.getCurrent().pipe(Effect.provide(admin))
        const patched = yield* AdminProjects.updateCurrent({ config: { magicLinkEnabled: true, oauthAccountMergeStrategy: "allow_duplicates" } }).pipe(
          Effect.provide(admin)
        )
        const key = yield* InternalApiKeys.create({
          description: "e2e",
          expiresAt: new Date(Date.now() + 3_600_000),
          hasPublishableClientKey: false,
          hasSecretServerKey: true,
          hasSuperSecretAdminKey: false
        }).pipe(Effect.provide(admin))
        const revoked = yield* InternalApiKeys.revoke(key.id).pipe(Effect.provide(admin))
        return { owned, read, patched, key, revoked }
      })
    )
    const result = await Effect.runPromise(program)
    expect(result.owned.map((p) => p.id)).toEqual([demo.projectId])
    expect(result.read.ownerTeamId).toBe(defaults.internalOwner.teamId)
    expect(result.patched.config.magicLinkEnabled).toBe(true)
    expect(result.patched.config.oauthAccountMergeStrategy).toBe("allow_duplicates")
    expect(InternalApiKeys.validity(result.revoked, new Date())).toBe("manually-revoked")
    // the revoked key is refused over HTTP
    const answer = await fetch(`${main.server.baseUrl}/api/v1/projects/current`, {
      headers: {
        "x-stack-project-id": demo.projectId,
        "x-stack-access-type": "server",
        "x-stack-secret-server-key": Redacted.value(result.key.secretServerKey!)
      }
    })
    expect(answer.status).toBe(401)
    expect(answer.headers.get("x-stack-known-error")).toBe("INVALID_SECRET_SERVER_KEY")
    // the admin calls went to the demo project, the sign-in to internal
    expect(demoClient.count("GET /internal/projects/current")).toBe(1)
    expect(internal.count("GET /internal/projects")).toBe(1)
  })
})
