import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Config, ConfigProvider, Effect, Layer, Option, Redacted } from "effect"
import * as Password from "../../src/auth/Password.js"
import * as Access from "../../src/core/Access.js"
import { AdminAccess, ServerAccess } from "../../src/core/Access.js"
import * as StackConfig from "../../src/core/StackConfig.js"
import type { RunningServer } from "../../src/emulator/server.js"
import * as Stack from "../../src/Stack.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, startServer } from "../e2e/support.js"

const uuid = "6a1d4a4f-6a51-4a8e-8a8d-0b3c1d2e3f40"
const withEnv = (env: Record<string, string>) => Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))

describe("StackConfig from options", () => {
  it.effect("accepts 'internal' or a uuid, strips the base URL's trailing slash, wraps the key in Redacted", () =>
    Effect.gen(function* () {
      const config = yield* StackConfig.make({ projectId: uuid, baseUrl: "http://127.0.0.1:8102/", publishableClientKey: "pck_abc" })
      expect(config.baseUrl).toBe("http://127.0.0.1:8102")
      expect(Redacted.value(Option.getOrThrow(config.publishableClientKey))).toBe("pck_abc")
      expect(String(Option.getOrThrow(config.publishableClientKey))).not.toContain("pck_abc")
      expect(config.clientVersion).toMatch(/^js stack-auth-effect@/)
      const internal = yield* StackConfig.make({ projectId: "internal" })
      expect(internal.baseUrl).toBe(StackConfig.defaultBaseUrl)
    }))

  it.effect("a malformed project id or base URL fails naming the setting", () =>
    Effect.gen(function* () {
      const badId = yield* Effect.flip(StackConfig.make({ projectId: "not a project" }))
      expect(badId.setting).toBe("projectId")
      const badUrl = yield* Effect.flip(StackConfig.make({ projectId: uuid, baseUrl: "ftp://x" }))
      expect(badUrl.setting).toBe("baseUrl")
      const notUrl = yield* Effect.flip(StackConfig.make({ projectId: uuid, baseUrl: "::" }))
      expect(notUrl.setting).toBe("baseUrl")
    }))
})

describe("the base URL", () => {
  it.effect("drops a trailing /api/v1 (with or without slashes) from the base URL", () =>
    Effect.gen(function* () {
      for (
        const baseUrl of [
          "https://api.example.com/api/v1",
          "https://api.example.com/api/v1/",
          "https://api.example.com/api/v1//",
          "https://api.example.com/API/V1",
          "https://api.example.com//"
        ]
      ) {
        const config = yield* StackConfig.make({ projectId: uuid, baseUrl })
        expect(config.baseUrl, baseUrl).toBe("https://api.example.com")
      }
      const prefixed = yield* StackConfig.make({ projectId: uuid, baseUrl: "https://example.com/stack/api/v1/" })
      expect(prefixed.baseUrl).toBe("https://example.com/stack")
      const fromEnv = yield* StackConfig.fromConfig().pipe(
        withEnv({ STACK_PROJECT_ID: uuid, STACK_API_URL: "http://127.0.0.1:8102/api/v1/" })
      )
      expect(fromEnv.baseUrl).toBe("http://127.0.0.1:8102")
    }))

  it.effect("keeps a path that only contains /api/v1 in the middle", () =>
    Effect.gen(function* () {
      const config = yield* StackConfig.make({ projectId: uuid, baseUrl: "https://example.com/api/v1/proxy" })
      expect(config.baseUrl).toBe("https://example.com/api/v1/proxy")
    }))

  it.effect("refuses a base URL that is not http(s) with a message naming the URL and the schemes", () =>
    Effect.gen(function* () {
      for (const baseUrl of ["ftp://api.example.com", "file:///tmp/x", "javascript:alert(1)", "ws://api.example.com"]) {
        const error = yield* Effect.flip(StackConfig.make({ projectId: uuid, baseUrl }))
        expect(error.setting).toBe("baseUrl")
        expect(error.message).toContain(baseUrl)
        expect(error.message).toContain("http or https")
      }
    }))
})

describe("the base URL over HTTP against the emulator", () => {
  let emulator: { server: RunningServer; stop: () => Promise<void> }
  beforeAll(async () => {
    emulator = await startServer()
  })
  afterAll(async () => {
    await emulator?.stop()
  })

  it("a base URL ending in /api/v1/ reaches the service at /api/v1/… (not /api/v1/api/v1/…)", async () => {
    const server = emulator.server
    const fetch = countingFetch()
    const layer = Stack.layerClient({
      projectId: server.emulator.demo.projectId,
      publishableClientKey: server.emulator.demo.publishableClientKey,
      baseUrl: `${server.baseUrl}/api/v1/`,
      httpClient: fetch.layer,
      tokenStore: TokenStore.layerMemory(TokenStore.empty)
    })
    const email = `baseurl-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`
    const run = <A, E>(effect: Effect.Effect<A, E, Stack.ClientServices>) => Effect.runPromise(effect.pipe(Effect.provide(layer)) as Effect.Effect<A, unknown>)
    const current = await run(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse battery", noVerificationCallback: true })
        return yield* Users.getCurrent()
      })
    )
    expect(Option.getOrThrow(current).primaryEmail).toBe(email)
    expect(fetch.count("POST /auth/password/sign-up")).toBe(1)
    expect(fetch.count("GET /users/me")).toBe(1)
    expect(fetch.count("POST /api/v1/auth/password/sign-up")).toBe(0)
  })
})

describe("StackConfig from the environment (PROTOCOL.md §5.4)", () => {
  it.effect("reads STACK_PROJECT_ID, STACK_PUBLISHABLE_CLIENT_KEY and STACK_API_URL", () =>
    Effect.gen(function* () {
      const config = yield* StackConfig.fromConfig().pipe(
        withEnv({ STACK_PROJECT_ID: uuid, STACK_PUBLISHABLE_CLIENT_KEY: "pck_env", STACK_API_URL: "http://127.0.0.1:9/" })
      )
      expect(config.projectId).toBe(uuid)
      expect(config.baseUrl).toBe("http://127.0.0.1:9")
      expect(Redacted.value(Option.getOrThrow(config.publishableClientKey))).toBe("pck_env")
    }))

  it.effect("the NEXT_PUBLIC_ variants win over the plain ones", () =>
    Effect.gen(function* () {
      const config = yield* StackConfig.fromConfig().pipe(
        withEnv({
          NEXT_PUBLIC_STACK_PROJECT_ID: "internal",
          STACK_PROJECT_ID: uuid,
          NEXT_PUBLIC_STACK_PUBLISHABLE_CLIENT_KEY: "pck_public",
          NEXT_PUBLIC_STACK_API_URL: "https://api.example.com"
        })
      )
      expect(config.projectId).toBe("internal")
      expect(Redacted.value(Option.getOrThrow(config.publishableClientKey))).toBe("pck_public")
      expect(config.baseUrl).toBe("https://api.example.com")
    }))

  it.effect("a missing project id fails the layer with an error naming STACK_PROJECT_ID", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Layer.build(StackConfig.layerConfig()).pipe(Effect.scoped, withEnv({})))
      expect(error.setting).toBe("STACK_PROJECT_ID")
      expect(error.message).toContain("STACK_PROJECT_ID")
    }))

  it.effect("a malformed setting fails naming it", () =>
    Effect.gen(function* () {
      const badId = yield* Effect.flip(StackConfig.fromConfig().pipe(withEnv({ STACK_PROJECT_ID: "nope" })))
      expect(badId.setting).toBe("STACK_PROJECT_ID")
      const badUrl = yield* Effect.flip(StackConfig.fromConfig().pipe(withEnv({ STACK_PROJECT_ID: uuid, STACK_API_URL: "nope" })))
      expect(badUrl.setting).toBe("STACK_API_URL")
      const badHeaders = yield* Effect.flip(
        StackConfig.fromConfig().pipe(withEnv({ STACK_PROJECT_ID: uuid, STACK_EXTRA_REQUEST_HEADERS: "[1]" }))
      )
      expect(badHeaders.setting).toBe("STACK_EXTRA_REQUEST_HEADERS")
    }))

  it.effect("STACK_EXTRA_REQUEST_HEADERS is a JSON object of strings", () =>
    Effect.gen(function* () {
      const config = yield* StackConfig.fromConfig().pipe(
        withEnv({ STACK_PROJECT_ID: uuid, STACK_EXTRA_REQUEST_HEADERS: JSON.stringify({ "x-trace": "1" }) })
      )
      expect(config.extraHeaders).toEqual({ "x-trace": "1" })
    }))
})

describe("StackConfig from Config values (issue 13 item 8)", () => {
  it.effect("layerConfig reads the settings from the Config values it is given, the rest from the default variables", () =>
    Effect.gen(function* () {
      const layer = StackConfig.layerConfig({
        projectId: Config.String("AUTH_PROJECT"),
        publishableClientKey: Config.Redacted("AUTH_CLIENT_KEY"),
        extraHeaders: Config.succeed({ "x-trace": "2" }),
        clientVersion: Config.succeed("js my-app@1.0.0")
      })
      const config = yield* StackConfig.StackConfig.pipe(
        Effect.provide(layer),
        withEnv({
          AUTH_PROJECT: uuid,
          AUTH_CLIENT_KEY: "pck_custom",
          // ignored: the project id and key come from the given Config values
          STACK_PROJECT_ID: "internal",
          STACK_PUBLISHABLE_CLIENT_KEY: "pck_env",
          // not given: read from its default variable
          STACK_API_URL: "http://127.0.0.1:9/api/v1/"
        })
      )
      expect(config.projectId).toBe(uuid)
      expect(Redacted.value(Option.getOrThrow(config.publishableClientKey))).toBe("pck_custom")
      expect(config.baseUrl).toBe("http://127.0.0.1:9")
      expect(config.extraHeaders).toEqual({ "x-trace": "2" })
      expect(config.clientVersion).toBe("js my-app@1.0.0")
    }))

  it.effect("with no argument, layerConfig reads the default variables (the names stay the default)", () =>
    Effect.gen(function* () {
      const config = yield* StackConfig.StackConfig.pipe(
        Effect.provide(StackConfig.layerConfig()),
        withEnv({ STACK_PROJECT_ID: uuid, STACK_API_URL: "https://api.example.com" })
      )
      expect(config.projectId).toBe(uuid)
      expect(config.baseUrl).toBe("https://api.example.com")
      expect(Option.isNone(config.publishableClientKey)).toBe(true)
    }))

  it.effect("a given Config that is missing or malformed fails naming the option", () =>
    Effect.gen(function* () {
      const missing = yield* Effect.flip(StackConfig.fromConfig({ projectId: Config.String("AUTH_PROJECT") }).pipe(withEnv({ STACK_PROJECT_ID: uuid })))
      expect(missing.setting).toBe("projectId")
      expect(missing.message).toContain("AUTH_PROJECT")
      const badUrl = yield* Effect.flip(
        StackConfig.fromConfig({ baseUrl: Config.String("AUTH_URL") }).pipe(withEnv({ STACK_PROJECT_ID: uuid, AUTH_URL: "ftp://x" }))
      )
      expect(badUrl.setting).toBe("baseUrl")
      const badId = yield* Effect.flip(StackConfig.fromConfig({ projectId: Config.succeed("nope") }).pipe(withEnv({})))
      expect(badId.setting).toBe("projectId")
    }))
})

describe("access keys", () => {
  it.effect("server and admin keys come from STACK_SECRET_SERVER_KEY and STACK_SUPER_SECRET_ADMIN_KEY", () =>
    Effect.gen(function* () {
      const server = yield* ServerAccess
      const admin = yield* AdminAccess
      expect(Redacted.value(server.secretServerKey)).toBe("ssk_env")
      const credential = yield* admin.credential
      expect(credential._tag).toBe("AdminKey")
    }).pipe(
      Effect.provide(Layer.merge(Access.layerServerConfig, Access.layerAdminConfig)),
      withEnv({ STACK_SECRET_SERVER_KEY: "ssk_env", STACK_SUPER_SECRET_ADMIN_KEY: "sak_env" })
    ))

  it.effect("a missing secret key fails with the spec's message naming the variable", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Layer.build(Access.layerServerConfig).pipe(Effect.scoped, withEnv({})))
      expect(error.setting).toBe("STACK_SECRET_SERVER_KEY")
      expect(error.message).toContain("put it in the STACK_SECRET_SERVER_KEY environment variable")
      const admin = yield* Effect.flip(Layer.build(Access.layerAdminConfig).pipe(Effect.scoped, withEnv({})))
      expect(admin.setting).toBe("STACK_SUPER_SECRET_ADMIN_KEY")
      const empty = yield* Effect.flip(Layer.build(Access.layerServer("")).pipe(Effect.scoped))
      expect(empty._tag).toBe("MissingAccessKey")
    }))

  it.effect("admin access works with an admin access token (owner session on the internal project)", () =>
    Effect.gen(function* () {
      const admin = yield* AdminAccess
      const credential = yield* admin.credential
      expect(credential._tag).toBe("AdminAccessToken")
    }).pipe(Effect.provide(Access.layerAdminAccessToken(Effect.succeed(Redacted.make("eyJ.admin.token"))))))
})
