/**
 * A tiny router over the History API: the current URL as React state, `navigate`, and `<Link>`.
 * Enough for a handful of pages; no package needed.
 */
import { useSyncExternalStore } from "react"
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from "react"

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

/** Navigates inside the app (same origin) without reloading; other URLs load normally. */
export const navigate = (to: string, options: { readonly replace?: boolean } = {}): void => {
  const target = new URL(to, window.location.href)
  if (target.origin !== window.location.origin) {
    if (options.replace === true) window.location.replace(target.href)
    else window.location.assign(target.href)
    return
  }
  if (options.replace === true) window.history.replaceState(null, "", target.href)
  else window.history.pushState(null, "", target.href)
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

/**
 * The destination after signing in: `after_auth_return_to` of the current page when it stays on
 * this site (a path, not `//host`, no scheme), else `fallback`.
 */
export const returnTo = (url: URL, fallback: string): string => {
  const value = url.searchParams.get("after_auth_return_to")
  if (value === null) return fallback
  try {
    const target = new URL(value, url.origin)
    if (target.origin !== url.origin) return fallback
    return `${target.pathname}${target.search}${target.hash}`
  } catch {
    return fallback
  }
}

/** A handler page's path with `after_auth_return_to` carried over from the current page. */
export const withReturnTo = (path: string, url: URL): string => {
  const value = url.searchParams.get("after_auth_return_to")
  return value === null ? path : `${path}?after_auth_return_to=${encodeURIComponent(value)}`
}

/** The sign-in page, asked to come back to `url` afterwards. */
export const signInReturningTo = (url: URL): string =>
  `/handler/sign-in?after_auth_return_to=${encodeURIComponent(`${url.pathname}${url.search}`)}`
