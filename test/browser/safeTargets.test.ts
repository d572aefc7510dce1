/**
 * The demo app's navigation targets (examples/react-app/src/safeTargets.ts): every target from a
 * query parameter goes through the SDK's trusted-URL check with the app's origin, so a return path
 * that leaves the app (`/..//evil.example` and its twins) falls back to home.
 */
import { describe, expect, it } from "vitest"
import { returnTo, safeTarget, signInReturningTo, withReturnTo } from "../../examples/react-app/src/safeTargets.js"

const app = "http://127.0.0.1:5173"
const signInWith = (returnValue: string) => new URL(`${app}/handler/sign-in?after_auth_return_to=${encodeURIComponent(returnValue)}`)

/** Return paths that leave the app's origin once a browser, router or server has read them. */
const leaving = [
  "/..//evil.example",
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "/%2F%2Fevil.example",
  "/..%2f%2fevil.example",
  "/%2F%2Fevil.example/%",
  "/%2F%2Fevil.example/%ff",
  "/%252e%252e//evil.example",
  "http://evil.example/",
  "http://127.0.0.1:5174/",
  "https://127.0.0.1:5173/",
  "http://127.0.0.1:5173@evil.example/",
  "javascript:alert(1)",
  "evil.example",
  "\t//evil.example"
]

describe("demo app: navigation targets from query parameters pass the SDK's trust check", () => {
  it.each(leaving)("returnTo falls back to home for an after_auth_return_to that leaves the app: %j", (value) => {
    expect(returnTo(signInWith(value), "/")).toBe("/")
    expect(safeTarget(value, app)).toBeUndefined()
  })

  it("returnTo follows an after_auth_return_to of the app (a path, or an absolute URL of its origin) as a path", () => {
    expect(returnTo(signInWith("/teams?tab=1#top"), "/")).toBe("/teams?tab=1#top")
    expect(returnTo(signInWith(`${app}/handler/account-settings#profile`), "/")).toBe("/handler/account-settings#profile")
    expect(returnTo(signInWith("/a/../teams"), "/")).toBe("/teams")
    expect(returnTo(new URL(`${app}/handler/sign-in`), "/home")).toBe("/home")
  })

  it("withReturnTo carries only a trusted after_auth_return_to to the next handler page", () => {
    expect(withReturnTo("/handler/mfa", signInWith("/teams"))).toBe("/handler/mfa?after_auth_return_to=%2Fteams")
    expect(withReturnTo("/handler/mfa", signInWith("/..//evil.example"))).toBe("/handler/mfa")
    expect(withReturnTo("/handler/mfa", new URL(`${app}/handler/sign-in`))).toBe("/handler/mfa")
  })

  it("signInReturningTo asks to come back to the current page, and that target is trusted", () => {
    const target = signInReturningTo(new URL(`${app}/teams?team=1`))
    expect(target).toBe("/handler/sign-in?after_auth_return_to=%2Fteams%3Fteam%3D1")
    expect(returnTo(new URL(target, app), "/")).toBe("/teams?team=1")
  })
})
