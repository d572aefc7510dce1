// @vitest-environment happy-dom
/**
 * `useStackSuspenseQuery` identifies its effect by its dependencies the way React does
 * (`Object.is`, element by element), never by a serialisation: dependencies that print alike
 * (`Redacted` tokens, `Map`s, `Set`s, `undefined` / `null`, objects with a `toJSON`) are still
 * different, and the hook shows the value of the current ones.
 */
import { act, render, screen, waitFor } from "@testing-library/react"
import { Effect, Redacted } from "effect"
import { Suspense, version as reactVersion } from "react"
import { describe, expect, it } from "vitest"
import { StackProvider, useStackSuspenseQuery } from "../../react/index.js"
import { useFreshApp } from "./freshApp.js"
import type { App } from "./support.js"

let app: App

useFreshApp((made) => (app = made))

/** Shows what `read(dep)` gives, through the suspense hook with `[dep]` as dependencies; counts runs. */
const harness = <D,>(read: (dep: D) => string) => {
  const runs: Array<string> = []
  const Show = (props: { readonly dep: D }) => {
    const value = useStackSuspenseQuery(
      Effect.sync(() => {
        const text = read(props.dep)
        runs.push(text)
        return text
      }),
      [props.dep]
    )
    return <span data-testid="value">{value}</span>
  }
  const ui = (dep: D) => (
    <StackProvider runtime={app.runtime}>
      <Suspense fallback={<span data-testid="fallback">loading</span>}>
        <Show dep={dep} />
      </Suspense>
    </StackProvider>
  )
  return { runs, ui }
}

const shows = (text: string) => waitFor(() => expect(screen.getByTestId("value").textContent).toBe(text))

describe(`React ${reactVersion}: useStackSuspenseQuery compares dependencies by identity (Object.is)`, () => {
  it("after switching from Alice's Redacted token to Bob's it shows Bob (the tokens serialise alike)", async () => {
    const alice = Redacted.make("alice-token")
    const bob = Redacted.make("bob-token")
    expect(JSON.stringify([alice])).toBe(JSON.stringify([bob]))
    const { runs, ui } = harness((token: Redacted.Redacted<string>) => Redacted.value(token))
    const view = render(ui(alice))
    await shows("alice-token")
    view.rerender(ui(bob))
    await shows("bob-token")
    expect(runs).toContain("bob-token")
    view.rerender(ui(alice))
    await shows("alice-token")
  })

  it("Maps, Sets, undefined / null and objects with the same toJSON are different dependencies", async () => {
    const first = new Map([["user", "alice"]])
    const second = new Map([["user", "bob"]])
    const maps = harness((map: Map<string, string>) => map.get("user") ?? "?")
    const view = render(maps.ui(first))
    await shows("alice")
    view.rerender(maps.ui(second))
    await shows("bob")
    view.unmount()

    const sets = harness((set: Set<string>) => [...set].join(","))
    const setView = render(sets.ui(new Set(["a"])))
    await shows("a")
    setView.rerender(sets.ui(new Set(["b"])))
    await shows("b")
    setView.unmount()

    const nothing = harness((value: undefined | null) => String(value))
    const nothingView = render(nothing.ui(undefined))
    await shows("undefined")
    nothingView.rerender(nothing.ui(null))
    await shows("null")
    nothingView.unmount()

    const masked = harness((value: { readonly secret: string; readonly toJSON: () => string }) => value.secret)
    const maskedView = render(masked.ui({ secret: "one", toJSON: () => "same" }))
    await shows("one")
    maskedView.rerender(masked.ui({ secret: "two", toJSON: () => "same" }))
    await shows("two")
  })

  it("the same dependencies (by identity) keep one query: re-renders run the effect once", async () => {
    const token = Redacted.make("alice-token")
    const { runs, ui } = harness((value: Redacted.Redacted<string>) => Redacted.value(value))
    const view = render(ui(token))
    await shows("alice-token")
    const before = runs.length
    for (let i = 0; i < 5; i++) view.rerender(ui(token))
    await act(async () => {
      await Promise.resolve()
    })
    expect(screen.getByTestId("value").textContent).toBe("alice-token")
    expect(runs.length).toBe(before)
  })
})
