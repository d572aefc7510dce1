/**
 * A tiny router over the History API: the current URL as React state, `navigate`, and `<Link>`.
 * Enough for a handful of pages; no package needed. It only ever navigates to paths of this app
 * that the SDK's trusted-URL check accepts (see ./safeTargets.ts).
 */
import { useSyncExternalStore } from "react"
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from "react"
import { safeTarget } from "./safeTargets.js"

const listeners = new Set<() => void>()
const notify = () => {
  for (const listener of listeners) listener()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  if (listeners.size === 1) window.addEventListener("popstate", notify)
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0) window.removeEventListener("popstate", notify)
  }
}

/** The current URL (re-renders on navigation). */
export const useLocation = (): URL => {
  const href = useSyncExternalStore(subscribe, () => window.location.href, () => "http://localhost/")
  return new URL(href)
}

/**
 * Navigates inside the app without reloading. Every target passes the SDK's trusted-URL check
 * ({@link safeTarget}) first: one that is not a path of this app (another origin, `//host`,
 * `/..//host`…) is not followed; the app goes home instead.
 */
export const navigate = (to: string, options: { readonly replace?: boolean } = {}): void => {
  const target = safeTarget(to, window.location.origin)
  if (target === undefined) console.warn(`Not navigating to ${JSON.stringify(to)}: not a path of this app.`)
  const path = target ?? "/"
  if (options.replace === true) window.history.replaceState(null, "", path)
  else window.history.pushState(null, "", path)
  window.scrollTo(0, 0)
  notify()
}

/** A link that navigates inside the app. */
export const Link = (props: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly to: string; readonly children?: ReactNode }) => {
  const { to, onClick, ...rest } = props
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event)
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    event.preventDefault()
    navigate(to)
  }
  return <a href={to} onClick={handle} {...rest} />
}

export { returnTo, signInReturningTo, withReturnTo } from "./safeTargets.js"
