/**
 * End to end over real HTTP against the emulator server: `ProjectConfig` writes take effect in what
 * the service serves (a sign-up refused after `auth.allowSignUp: false`, a trusted domain accepted
 * after it is added), a push records its source, an unknown key never leaves the SDK, and
 * `Projects.transfer` moves the demo project to another team of the signed-in owner.
 */
import { Effect, Layer, Result } from "effect"
import { describe, expect, it } from "vitest"
import { defaults } from "../../src/emulator/Defaults.js"
import { Password, Stack } from "../../src/index.js"
import * as AdminProjects from "../../src/projects/AdminProjects.js"
import * as ProjectConfig from "../../src/projects/ProjectConfig.js"
import * as Projects from "../../src/projects/Projects.js"
import * as ServerTeams from "../../src/teams/ServerTeams.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const adminLayer = () => {
  const demo = main.server.emulator.demo
  const fetch = countingFetch()
  return {
    layer: Stack.layerAdmin({
      projectId: demo.projectId,
      baseUrl: main.server.baseUrl,
      httpClient: fetch.layer,
      superSecretAdminKey: demo.superSecretAdminKey
    }),
    count: fetch.count
  }
}

const clientLayer = (projectId: string) => Stack.layerClient({ projectId, baseUrl: main.server.baseUrl, httpClient: countingFetch().layer })

describe("project config over HTTP", () => {
  it("update closes sign-ups and trusts a domain; the service's answers follow; reset-keys reopens", async () => {
    const admin = adminLayer()
    const demo = main.server.emulator.demo
    const signUp = (email: string, verificationCallbackUrl: string) =>
      Password.signUpWithPassword({ email, password: "correct horse battery", verificationCallbackUrl }).pipe(
        Effect.provide(clientLayer(demo.projectId)),
        Effect.flip,
        Effect.map((error) => error._tag)
      )

    await Effect.runPromise(ProjectConfig.update({ "auth.allowSignUp": false }).pipe(Effect.provide(admin.layer)))
    expect(await Effect.runPromise(signUp("closed@example.com", "http://localhost:3000/handler/email-verification"))).toBe("SignUpNotEnabled")

    await Effect.runPromise(
      Effect.gen(function* () {
        yield* ProjectConfig.resetOverrideKeys("environment", ["auth.allowSignUp"])
        yield* ProjectConfig.update({ "domains.trustedDomains.site": { baseUrl: "https://site.example.com", handlerPath: "/handler" } })
      }).pipe(Effect.provide(admin.layer))
    )
    const user = await Effect.runPromise(
      Password.signUpWithPassword({
        email: "open@example.com",
        password: "correct horse battery",
        verificationCallbackUrl: "https://site.example.com/handler/email-verification"
      }).pipe(Effect.provide(clientLayer(demo.projectId)), Effect.result)
    )
    expect(Result.isSuccess(user)).toBe(true)
    const project = await Effect.runPromise(AdminProjects.getCurrent().pipe(Effect.provide(admin.layer)))
    expect(project.config.domains).toContainEqual({ domain: "https://site.example.com", handlerPath: "/handler" })
  })

  it("push records where the config came from; an unknown key is refused before sending", async () => {
    const admin = adminLayer()
    const source = { type: "pushed-from-unknown" } as const
    const result = await Effect.runPromise(
      Effect.gen(function* () {
        yield* ProjectConfig.push({ "auth.passkey.allowSignIn": true }, { source })
        const pushed = yield* ProjectConfig.getPushedSource()
        const config = yield* ProjectConfig.get()
        const refused = yield* Effect.flip(ProjectConfig.update({ "teams.allowClientTeamCreatio": true } as ProjectConfig.EnvironmentConfigOverride))
        return { pushed, config, refused, patches: admin.count("PATCH /internal/config/override/environment") }
      }).pipe(Effect.provide(admin.layer))
    )
    expect(result.pushed).toEqual(source)
    expect(result.config.auth?.passkey?.allowSignIn).toBe(true)
    expect(result.refused._tag).toBe("InvalidConfigOverride")
    expect(result.patches).toBe(0)
  })

  it("transfer moves the demo project to another team of the signed-in owner", async () => {
    const emulator = main.server.emulator
    const internalServer = Stack.layerServer({
      projectId: "internal",
      baseUrl: main.server.baseUrl,
      httpClient: countingFetch().layer,
      secretServerKey: emulator.internal.secretServerKey
    })
    const target = await Effect.runPromise(
      ServerTeams.create({ displayName: "Transfer target", creatorUserId: defaults.internalOwner.userId }).pipe(Effect.provide(internalServer))
    )
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(clientLayer("internal"))
          yield* Password.signInWithPassword({ email: defaults.internalOwner.email, password: defaults.internalOwner.password }).pipe(
            Effect.provide(context)
          )
          yield* Projects.transfer(emulator.demo.projectId, target.id).pipe(Effect.provide(context))
        })
      )
    )
    const project = await Effect.runPromise(AdminProjects.getCurrent().pipe(Effect.provide(adminLayer().layer)))
    expect(project.ownerTeamId).toBe(target.id)
  })
})
