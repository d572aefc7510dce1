// @vitest-environment happy-dom
/**
 * `useStackSuspenseQuery` with an effect that takes time and does not go through the query cache,
 * in a client-only root (`createRoot`): a component that suspends before it ever mounted is
 * rendered again from scratch on every retry (a new `useId` each time), so the pending query must
 * be found again by something stable across retries (the hook's call site and its dependencies),
 * or every retry starts a new run and throws a new promise that never lets the component mount.
 */
import { act, screen, waitFor } from "@testing-library/react"
import { Data, Effect } from "effect"
import { Component, StrictMode, Suspense, version as reactVersion } from "react"
import type { ReactNode } from "react"
import { createRoot } from "react-dom/client"
import type { Root } from "react-dom/client"
import { afterEach, describe, expect, it, vi } from "vitest"
import {
  StackProvider,
  useStackContext,
  useStackSuspenseQuery,
  useSuspenseContactChannels,
  useSuspenseSessions,
  useSuspenseTeams,
  useSuspenseUser
} from "../../react/index.js"
import { useFreshApp } from "./freshApp.js"
import type { App } from "./support.js"

let app: App

useFreshApp((made) => (app = made))

const roots: Array<{ readonly root: Root; readonly container: HTMLElement }> = []

afterEach(() => {
  for (const { root, container } of roots.splice(0)) {
    act(() => root.unmount())
    container.remove()
  }
})

/** Renders `ui` in a new client-only root (no hydration: `useId` is a counter there). */
const mount = (ui: ReactNode): Root => {
  const container = document.createElement("div")
  document.body.appendChild(container)
  const root = createRoot(container)
  roots.push({ root, container })
  act(() => root.render(ui))
  return root
}

/** A slow, uncached effect: sleeps, then gives `value`; `runs[value]` counts its runs. */
const slow = (value: number, runs: Map<number, number>) =>
  Effect.sleep("50 millis").pipe(
    Effect.andThen(Effect.sync(() => runs.set(value, (runs.get(value) ?? 0) + 1))),
    Effect.as(value)
  )

/** How many suspense queries the provider keeps, written into `seen` on every render. */
const Kept = (props: { readonly seen: { size: number } }) => {
  props.seen.size = useStackContext().suspenseQueries.size
  return null
}

const Provider = (props: { readonly children: ReactNode }) => (
  <StackProvider runtime={app.runtime}>
    <Suspense fallback={<span data-testid="fallback">loading</span>}>{props.children}</Suspense>
  </StackProvider>
)

const text = (testId: string) => screen.getByTestId(testId).textContent

describe(`React ${reactVersion}: useStackSuspenseQuery with a slow, uncached effect in a createRoot root`, () => {
  it("shows the value: Effect.as(Effect.sleep('50 millis'), 42)", async () => {
    const Answer = () => {
      const value = useStackSuspenseQuery(Effect.as(Effect.sleep("50 millis"), 42), [])
      return <span data-testid="answer">{value}</span>
    }
    mount(
      <Provider>
        <Answer />
      </Provider>
    )
    expect(text("fallback")).toBe("loading")
    await waitFor(() => expect(text("answer")).toBe("42"))
  })

  it("runs the effect once for the mount, not once per retry", async () => {
    const runs = new Map<number, number>()
    const Answer = () => <span data-testid="answer">{useStackSuspenseQuery(slow(42, runs), [])}</span>
    mount(
      <Provider>
        <Answer />
      </Provider>
    )
    await waitFor(() => expect(text("answer")).toBe("42"))
    expect(runs.get(42)).toBe(1)
  })

  it("two sibling components with different effects and equal dependencies each show their own value", async () => {
    const runs = new Map<number, number>()
    const First = () => <span data-testid="first">{useStackSuspenseQuery(slow(1, runs), [])}</span>
    const Second = () => <span data-testid="second">{useStackSuspenseQuery(slow(2, runs), [])}</span>
    mount(
      <Provider>
        <First />
        <Second />
      </Provider>
    )
    await waitFor(() => expect(text("first")).toBe("1"))
    await waitFor(() => expect(text("second")).toBe("2"))
    expect([runs.get(1), runs.get(2)]).toEqual([1, 1])
  })

  it("one call site with different dependencies: each component its own value; equal ones share a run", async () => {
    const runs = new Map<number, number>()
    const Item = (props: { readonly n: number; readonly id: string }) => (
      <span data-testid={props.id}>{useStackSuspenseQuery(slow(props.n, runs), [props.n])}</span>
    )
    mount(
      <Provider>
        <Item n={1} id="a" />
        <Item n={2} id="b" />
        <Item n={1} id="c" />
      </Provider>
    )
    await waitFor(() => expect([text("a"), text("b"), text("c")]).toEqual(["1", "2", "1"]))
    expect([runs.get(1), runs.get(2)]).toEqual([1, 1])
  })

  it("under StrictMode: shows the value and runs the effect once", async () => {
    const runs = new Map<number, number>()
    const Answer = () => <span data-testid="answer">{useStackSuspenseQuery(slow(42, runs), [])}</span>
    mount(
      <StrictMode>
        <Provider>
          <Answer />
        </Provider>
      </StrictMode>
    )
    await waitFor(() => expect(text("answer")).toBe("42"))
    expect(runs.get(42)).toBe(1)
  })

  it("keeps one registry entry per query while mounted and none after unmount", async () => {
    const runs = new Map<number, number>()
    const seen = { size: -1 }
    const First = () => <span data-testid="first">{useStackSuspenseQuery(slow(1, runs), [])}</span>
    const Second = () => <span data-testid="second">{useStackSuspenseQuery(slow(2, runs), [])}</span>
    const root = mount(
      <Provider>
        <First />
        <Second />
        <Kept seen={seen} />
      </Provider>
    )
    await waitFor(() => expect([text("first"), text("second")]).toEqual(["1", "2"]))
    expect(seen.size).toBe(2)
    let probe = { size: -1 }
    const Probe = () => {
      probe = { size: useStackContext().suspenseQueries.size }
      return null
    }
    act(() =>
      root.render(
        <Provider>
          <Probe />
        </Provider>
      )
    )
    await act(async () => {
      await Promise.resolve()
    })
    act(() =>
      root.render(
        <Provider>
          <Probe />
        </Provider>
      )
    )
    expect(probe.size).toBe(0)
  })
  it("a query whose render was abandoned before it mounted is dropped after it settles (no leak)", async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    let runs = 0
    const Gated = () => (
      <span data-testid="gated">
        {useStackSuspenseQuery(Effect.promise(() => gate.then(() => ++runs)), [])}
      </span>
    )
    let probe = -1
    const Probe = () => {
      probe = useStackContext().suspenseQueries.size
      return null
    }
    const root = mount(
      <StackProvider runtime={app.runtime}>
        <Suspense fallback={<span data-testid="fallback">loading</span>}>
          <Gated />
        </Suspense>
        <Probe />
      </StackProvider>
    )
    expect(text("fallback")).toBe("loading")
    expect(probe).toBe(1)
    // the component goes away while its query is still pending: nothing will ever mount it
    // a new element each time, so that the probe renders again
    const without = () => (
      <StackProvider runtime={app.runtime}>
        <Probe />
      </StackProvider>
    )
    act(() => root.render(without()))
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
    try {
      await act(async () => {
        release()
        // turns of the event loop (not faked) for the run to settle; the drop timer starts then
        for (let turn = 0; turn < 20; turn++) await new Promise<void>((resolve) => setImmediate(resolve))
      })
      expect(runs).toBe(1)
      act(() => root.render(without()))
      expect(probe).toBe(1)
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_000)
      })
    } finally {
      vi.useRealTimers()
    }
    act(() => root.render(without()))
    expect(runs).toBe(1)
    expect(probe).toBe(0)
  })
  it("the SDK's Suspense twins (each the same generic call, with []) rendered side by side each show their own list", async () => {
    await app.signUp("ada@example.com")
    const Channels = () => <span data-testid="channels">{useSuspenseContactChannels().map((channel) => channel.value).join(",")}</span>
    const Teams = () => <span data-testid="teams">{`${useSuspenseTeams().length} teams`}</span>
    const Sessions = () => <span data-testid="sessions">{`${useSuspenseSessions().length > 0}`}</span>
    mount(
      <Provider>
        <Channels />
        <Teams />
        <Sessions />
      </Provider>
    )
    await waitFor(() => expect([text("channels"), text("teams"), text("sessions")]).toEqual(["ada@example.com", "0 teams", "true"]))
  })
  it("a slow typed failure reaches the error boundary as the typed error", async () => {
    class Boom extends Data.TaggedError("Boom")<{ readonly message: string }> {}
    const errors = vi.spyOn(console, "error").mockImplementation(() => {})
    class Boundary extends Component<{ readonly children: ReactNode }, { readonly error: unknown }> {
      override state: { readonly error: unknown } = { error: undefined }
      static getDerivedStateFromError(error: unknown) {
        return { error }
      }
      override render() {
        const error = this.state.error as { readonly _tag?: string; readonly message?: string } | undefined
        return error === undefined ? this.props.children : <span data-testid="boundary">{`${error._tag}: ${error.message}`}</span>
      }
    }
    const Failing = () => {
      const value = useStackSuspenseQuery(Effect.andThen(Effect.sleep("50 millis"), Effect.fail(new Boom({ message: "slowly broke" }))), [])
      return <span>{String(value)}</span>
    }
    try {
      mount(
        <StackProvider runtime={app.runtime}>
          <Boundary>
            <Suspense fallback={<span data-testid="fallback">loading</span>}>
              <Failing />
            </Suspense>
          </Boundary>
        </StackProvider>
      )
      await waitFor(() => expect(text("boundary")).toBe("Boom: slowly broke"))
    } finally {
      errors.mockRestore()
    }
  })

  it("after sign-out and sign-in the user shows the current session; a slow uncached query beside it keeps its value", async () => {
    await app.signUp("ada@example.com")
    const runs = new Map<number, number>()
    const Name = () => <span data-testid="user">{useSuspenseUser()?.primaryEmail ?? "nobody"}</span>
    const Answer = () => <span data-testid="answer">{useStackSuspenseQuery(slow(42, runs), [])}</span>
    mount(
      <Provider>
        <Name />
        <Answer />
      </Provider>
    )
    await waitFor(() => expect([text("user"), text("answer")]).toEqual(["ada@example.com", "42"]))
    await act(() => app.signOut())
    await waitFor(() => expect(text("user")).toBe("nobody"))
    await act(() => app.signIn("ada@example.com"))
    await waitFor(() => expect(text("user")).toBe("ada@example.com"))
    await waitFor(() => expect(text("answer")).toBe("42"))
  })
})
