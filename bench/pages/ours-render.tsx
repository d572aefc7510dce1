/**
 * Time to a signed-in first render (issue 28 item 8), this SDK: the provider and a component
 * showing the signed-in user's e-mail, the session read from the cookies the official SDK
 * writes (this SDK's browser default). Built by Vite as a production app (`bench/lib/vite.ts`).
 */
import { ManagedRuntime } from "effect"
import { createRoot } from "react-dom/client"
import { Stack } from "stack-auth-effect"
import { StackProvider, useUser } from "stack-auth-effect/react"
import { pageConfig } from "./config.js"

const runtime = ManagedRuntime.make(Stack.layerClient(pageConfig()))

const Email = () => {
  const user = useUser()
  return <p id="email">{user.data?.primaryEmail ?? "…"}</p>
}

export const mount = (element: HTMLElement) =>
  createRoot(element).render(
    <StackProvider runtime={runtime}>
      <Email />
    </StackProvider>
  )
