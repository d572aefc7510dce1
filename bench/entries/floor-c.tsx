/**
 * Floor of bundle entry (c): the floor of (a) plus a React provider (`createContext`) and a
 * `useUser` hook over `useSyncExternalStore` (React bundled, as the other React entries).
 */
import { createContext, useContext, useSyncExternalStore } from "react"
import type { ReactNode } from "react"
import { createRoot } from "react-dom/client"
import { getCurrentUser } from "./floor/client.js"

type User = Awaited<ReturnType<typeof getCurrentUser>>

const store = (() => {
  let user: User | null = null
  let loading = false
  const listeners = new Set<() => void>()
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener)
      if (!loading) {
        loading = true
        void getCurrentUser().then((read) => {
          user = read
          for (const l of listeners) l()
        })
      }
      return () => listeners.delete(listener)
    },
    get: () => user
  }
})()

const Context = createContext(store)

const Provider = ({ children }: { readonly children: ReactNode }) => <Context.Provider value={store}>{children}</Context.Provider>

const useUser = () => {
  const s = useContext(Context)
  return useSyncExternalStore(s.subscribe, s.get, s.get)
}

const Greeting = () => {
  const current = useUser()
  return <p>{current === null ? "Signed out" : `Hello ${current.displayName ?? current.primaryEmail ?? ""}`}</p>
}

export const mount = (element: HTMLElement) =>
  createRoot(element).render(
    <Provider>
      <Greeting />
    </Provider>
  )
