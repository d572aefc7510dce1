// @vitest-environment happy-dom
/**
 * `useNotificationCategories` (the official React SDK's `user.useNotificationCategories()`)
 * against the in-process emulator: two components share one request; turning a category off
 * through the SDK re-renders them with one new request.
 */
import { fireEvent, render, screen, waitFor } from "@testing-library/react"
import type { ReactNode } from "react"
import { describe, expect, it } from "vitest"
import * as NotificationCategories from "../../src/emails/NotificationCategories.js"
import { StackProvider, useNotificationCategories, useStackMutation } from "../../react/index.js"
import { useFreshApp } from "./freshApp.js"
import type { App } from "./support.js"

let app: App

useFreshApp((made) => (app = made))

const Provider = (props: { readonly children: ReactNode }) => <StackProvider runtime={app.runtime}>{props.children}</StackProvider>

const marketingId = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c"

describe("useNotificationCategories", () => {
  it("lists the signed-in user's categories once for two components, and follows setEnabled with one new request", async () => {
    await app.signUp("hook-categories@example.com")
    const Categories = (props: { readonly id: number }) => {
      const categories = useNotificationCategories()
      return (
        <span data-testid={`categories-${props.id}`}>
          {categories.status === "success" ? categories.data.map((category) => `${category.name}:${category.enabled}`).join(",") : categories.status}
        </span>
      )
    }
    const TurnOff = () => {
      const turnOff = useStackMutation(() => NotificationCategories.setEnabled(marketingId, false))
      return (
        <button type="button" onClick={() => void turnOff.run()}>
          off
        </button>
      )
    }
    render(
      <Provider>
        <Categories id={0} />
        <Categories id={1} />
        <TurnOff />
      </Provider>
    )
    await waitFor(() => expect(screen.getByTestId("categories-0").textContent).toBe("Transactional:true,Marketing:true"))
    expect(screen.getByTestId("categories-1").textContent).toBe("Transactional:true,Marketing:true")
    expect(app.count("GET /emails/notification-preference/me")).toBe(1)
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(screen.getByTestId("categories-1").textContent).toBe("Transactional:true,Marketing:false"))
    expect(screen.getByTestId("categories-0").textContent).toBe("Transactional:true,Marketing:false")
    expect(app.count("GET /emails/notification-preference/me")).toBe(2)
  })
})
