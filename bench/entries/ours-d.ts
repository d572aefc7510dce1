/** Bundle entry (d), this SDK: a server app listing users. */
import { ManagedRuntime } from "effect"
import { ServerUsers, Stack } from "stack-auth-effect"

const runtime = ManagedRuntime.make(
  Stack.layerServer({ projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f", secretServerKey: "ssk_bench" })
)

export const listUsers = () => runtime.runPromise(ServerUsers.list({ limit: 100 }))
