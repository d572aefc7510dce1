/** Bundle entry (c), official SDK: a React app with the provider and `useUser` (React bundled, as an app ships it). */
import { StackClientApp, StackProvider, useUser } from "@stackframe/react"
import { createRoot } from "react-dom/client"

const app = new StackClientApp({
  projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f",
  publishableClientKey: "pck_bench",
  tokenStore: "cookie"
})

const Greeting = () => {
  const user = useUser()
  return <p>{user === null ? "Signed out" : `Hello ${user.displayName ?? user.primaryEmail ?? ""}`}</p>
}

export const mount = (element: HTMLElement) =>
  createRoot(element).render(
    <StackProvider app={app}>
      <Greeting />
    </StackProvider>
  )
