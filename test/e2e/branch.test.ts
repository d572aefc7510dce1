/**
 * The project's branch end to end over real HTTP against the emulator server: with `branchId:
 * "main"` (sent as `X-Stack-Branch-Id`) a sign-up and a read work; an unknown branch is the
 * service's `BRANCH_DOES_NOT_EXIST` (PROTOCOL.md §1.4 step 8).
 */
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import * as Password from "../../src/auth/Password.js"
import * as Stack from "../../src/Stack.js"
import * as Users from "../../src/users/Users.js"
import { countingFetch, useServer } from "./support.js"

const main = useServer()

const options = (branchId: string) => {
  const fetch = countingFetch()
  return {
    fetch,
    layer: Stack.layerClient({
      projectId: main.server.emulator.demo.projectId,
      publishableClientKey: main.server.emulator.demo.publishableClientKey,
      baseUrl: main.server.baseUrl,
      branchId,
      httpClient: fetch.layer
    })
  }
}

describe("the project's branch over HTTP", () => {
  it("branch main: sign-up and the current user work; an unknown branch is BRANCH_DOES_NOT_EXIST", async () => {
    const email = `e2e-branch-${Date.now()}@example.com`
    const mainBranch = options("main")
    const user = await Effect.runPromise(
      Effect.gen(function* () {
        yield* Password.signUpWithPassword({ email, password: "correct horse", noVerificationCallback: true })
        return yield* Users.getCurrent()
      }).pipe(Effect.provide(mainBranch.layer))
    )
    expect(Option.getOrThrow(user).primaryEmail).toBe(email)
    expect(mainBranch.fetch.count("POST /auth/password/sign-up")).toBe(1)

    const unknown = options("no-such-branch")
    const error = await Effect.runPromise(
      Effect.flip(Password.signInWithPassword({ email, password: "correct horse" })).pipe(Effect.provide(unknown.layer))
    )
    const known = error._tag === "UnexpectedKnownError" ? error.error._tag : error._tag
    expect(known).toBe("BranchDoesNotExist")
    expect(unknown.fetch.count("POST /auth/password/sign-in")).toBe(1)
  })
})
