/** Bundle entry (c), this SDK: a React app with the provider and `useUser` (React bundled, as an app ships it). */
import { ManagedRuntime } from "effect"
import { createRoot } from "react-dom/client"
import { Stack } from "stack-auth-effect"
import { StackProvider, useUser } from "stack-auth-effect/react"

const runtime = ManagedRuntime.make(
  Stack.layerClient({ projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f", publishableClientKey: "pck_bench" })
)

const Greeting = () => {
  const user = useUser()
  const current = user.data ?? null
  return <p>{current === null ? "Signed out" : `Hello ${current.displayName ?? current.primaryEmail ?? ""}`}</p>
}

export const mount = (element: HTMLElement) =>
  createRoot(element).render(
    <StackProvider runtime={runtime}>
      <Greeting />
    </StackProvider>
  )
