// @vitest-environment happy-dom
/**
 * `useMfaSignIn` (issue 15 item 7, SPEC.md §4 "Sign-in with MFA"): a sign-in form whose second
 * factor is a step of its own, against the in-process emulator. A TOTP user stops at
 * "needs-code"; a wrong code shows "wrong-code" and the attempt stays usable; the right code signs
 * in (and `useUser` follows); the attempt code is never rendered.
 */
import { configure, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Effect, Redacted } from "effect"
import { version as reactVersion } from "react"
import { describe, expect, it } from "vitest"
import * as Mfa from "../../src/auth/Mfa.js"
import * as Password from "../../src/auth/Password.js"
import * as Sessions from "../../src/auth/Sessions.js"
import * as Totp from "../../src/auth/Totp.js"
import { StackProvider, useMfaSignIn, useUser } from "../../react/index.js"
import { password } from "./support.js"

// a loaded machine (2 shared cores) can take more than the default 1 s to settle a query
configure({ asyncUtilTimeout: 10_000 })
import type { App } from "./support.js"
import { useFreshApp } from "./freshApp.js"

let app: App

useFreshApp((made) => (app = made))

const email = "mfa-form@example.com"

/** A user with TOTP on, signed out again; returns the secret. */
const userWithTotp = async () => {
  await app.signUp(email)
  const enabled = await app.runtime.runPromise(Mfa.enableTotp())
  await app.runtime.runPromise(Sessions.signOut())
  return Redacted.value(enabled.secret)
}

const wrongCode = (right: string) => String((Number(right) + 500000) % 1000000).padStart(6, "0")

const Form = (props: { readonly password?: string }) => {
  const mfa = useMfaSignIn((address: string, secret: string) => Password.signInWithPassword({ email: address, password: secret }))
  const user = useUser()
  return (
    <>
      <span data-testid="step">
        {mfa.state.step === "failed" ? `failed:${mfa.state.error._tag}` : mfa.state.step}
      </span>
      <span data-testid="user">{user.status === "success" ? (user.data?.primaryEmail ?? "nobody") : user.status}</span>
      <button type="button" onClick={() => void mfa.signIn(email, props.password ?? password)}>
        sign in
      </button>
      <input aria-label="code" />
      <button
        type="button"
        onClick={() => void mfa.submit((screen.getByLabelText("code") as HTMLInputElement).value)}
      >
        submit
      </button>
    </>
  )
}

const step = () => screen.getByTestId("step").textContent
const typeCode = (code: string) => {
  fireEvent.change(screen.getByLabelText("code"), { target: { value: code } })
  fireEvent.click(screen.getByRole("button", { name: "submit" }))
}

describe(`React ${reactVersion}: useMfaSignIn`, () => {
  it("a TOTP user: needs-code, a wrong code is wrong-code (attempt kept), the right code signs in and useUser follows", async () => {
    const secret = await userWithTotp()
    const { container } = render(
      <StackProvider runtime={app.runtime}>
        <Form />
      </StackProvider>
    )
    await waitFor(() => expect(screen.getByTestId("user").textContent).toBe("nobody"))
    fireEvent.click(screen.getByRole("button", { name: "sign in" }))
    await waitFor(() => expect(step()).toBe("needs-code"))
    const right = await Effect.runPromise(Totp.generate(secret))
    typeCode(wrongCode(right))
    await waitFor(() => expect(step()).toBe("wrong-code"))
    typeCode(right)
    await waitFor(() => expect(step()).toBe("signed-in"))
    await waitFor(() => expect(screen.getByTestId("user").textContent).toBe(email))
    expect(app.count("POST /auth/password/sign-in")).toBe(1)
    expect(app.count("POST /auth/mfa/sign-in")).toBe(2)
    expect(container.innerHTML).not.toMatch(/[0-9a-z]{45}/)
  })

  it("a user without MFA is signed in at once (no code asked)", async () => {
    await app.signUp(email)
    await app.runtime.runPromise(Sessions.signOut())
    render(
      <StackProvider runtime={app.runtime}>
        <Form />
      </StackProvider>
    )
    fireEvent.click(screen.getByRole("button", { name: "sign in" }))
    await waitFor(() => expect(step()).toBe("signed-in"))
    expect(app.count("POST /auth/mfa/sign-in")).toBe(0)
  })

  it("a wrong password fails with the sign-in's typed error, shown by the form, not the provider", async () => {
    await userWithTotp()
    const reported: Array<unknown> = []
    render(
      <StackProvider runtime={app.runtime} onError={(error) => reported.push(error)}>
        <Form password="not the password" />
      </StackProvider>
    )
    fireEvent.click(screen.getByRole("button", { name: "sign in" }))
    await waitFor(() => expect(step()).toBe("failed:EmailPasswordMismatch"))
    expect(reported).toEqual([])
  })

  it("submit before any challenge sends nothing", async () => {
    render(
      <StackProvider runtime={app.runtime}>
        <Form />
      </StackProvider>
    )
    typeCode("123456")
    expect(step()).toBe("idle")
    expect(app.count("POST /auth/mfa/sign-in")).toBe(0)
  })
})
