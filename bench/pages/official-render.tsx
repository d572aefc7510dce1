/**
 * Time to a signed-in first render (issue 28 item 8), the official `@stackframe/react`: its
 * provider and a component showing the signed-in user's e-mail (`useUser` suspends: a `Suspense`
 * boundary, as its documentation has it), the session read from its cookie token store. Built by
 * Vite as a production app (`bench/lib/vite.ts`).
 */
import { StackClientApp, StackProvider, useUser } from "@stackframe/react"
import { Suspense } from "react"
import { createRoot } from "react-dom/client"
import { pageConfig } from "./config.js"

const app = new StackClientApp({ ...pageConfig(), tokenStore: "cookie" })

const Email = () => {
  const user = useUser()
  return <p id="email">{user?.primaryEmail ?? "…"}</p>
}

export const mount = (element: HTMLElement) =>
  createRoot(element).render(
    <StackProvider app={app}>
      <Suspense fallback={<p>…</p>}>
        <Email />
      </Suspense>
    </StackProvider>
  )
