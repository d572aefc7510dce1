/**
 * Type tests of the ready-made layers' access levels (issue 15 item 3): `Stack.layerAdmin` with a
 * `secretServerKey` provides `ServerAccess` too, so server calls run under it; without the key it
 * does not. `Stack.layerAdminConfig({ server: true })` likewise. Checked by `tsc`.
 */
import type { Layer } from "effect"
import { Effect } from "effect"
import { describe, expectTypeOf, it } from "vitest"
import type { AdminAccess, ServerAccess } from "../../src/core/Access.js"
import * as Stack from "../../src/Stack.js"
import * as ServerUsers from "../../src/users/ServerUsers.js"
import type { RequirementsOf } from "./support.js"

const base = { projectId: "p", publishableClientKey: "pck_x", superSecretAdminKey: "sak_x" }

describe("Stack.layerAdmin access levels", () => {
  it("layerAdmin with a secretServerKey provides ServerAccess: ServerUsers.list() needs nothing more", () => {
    const layer = Stack.layerAdmin({ ...base, secretServerKey: "ssk_x" })
    expectTypeOf<Layer.Success<typeof layer>>().toEqualTypeOf<Stack.ClientServices | AdminAccess | ServerAccess>()
    const program = ServerUsers.list().pipe(Effect.provide(layer))
    expectTypeOf<RequirementsOf<typeof program>>().toEqualTypeOf<never>()
  })

  it("layerAdmin without a secretServerKey provides no ServerAccess: ServerUsers.list() still needs it", () => {
    const layer = Stack.layerAdmin(base)
    expectTypeOf<Layer.Success<typeof layer>>().toEqualTypeOf<Stack.ClientServices | AdminAccess>()
    const program = ServerUsers.list().pipe(Effect.provide(layer))
    expectTypeOf<RequirementsOf<typeof program>>().toEqualTypeOf<ServerAccess>()
  })

  it("layerAdmin with the key as undefined provides no ServerAccess", () => {
    const layer = Stack.layerAdmin({ ...base, secretServerKey: undefined })
    expectTypeOf<Layer.Success<typeof layer>>().toEqualTypeOf<Stack.ClientServices | AdminAccess>()
  })

  it("layerAdminConfig({ server: true }) provides ServerAccess; layerAdminConfig() does not", () => {
    const withServer = Stack.layerAdminConfig({ server: true })
    expectTypeOf<Layer.Success<typeof withServer>>().toEqualTypeOf<Stack.ClientServices | AdminAccess | ServerAccess>()
    const adminOnly = Stack.layerAdminConfig()
    expectTypeOf<Layer.Success<typeof adminOnly>>().toEqualTypeOf<Stack.ClientServices | AdminAccess>()
    const withoutServer = Stack.layerAdminConfig({ server: false })
    expectTypeOf<Layer.Success<typeof withoutServer>>().toEqualTypeOf<Stack.ClientServices | AdminAccess>()
  })
})
