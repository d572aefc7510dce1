/** Bundle entry (a), this SDK: a client and "get the current user". */
import { ManagedRuntime } from "effect"
import { Stack, Users } from "stack-auth-effect"

const runtime = ManagedRuntime.make(
  Stack.layerClient({ projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f", publishableClientKey: "pck_bench" })
)

export const getCurrentUser = () => runtime.runPromise(Users.getCurrent())
