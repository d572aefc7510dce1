// @vitest-environment happy-dom
/**
 * The React hooks against the in-process emulator (testing-library + happy-dom): they share the
 * SDK's cache, follow the session, interrupt on unmount, survive StrictMode, suspend, and report
 * failures nobody handles to the provider's `onError`.
 */
import { act, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Data, Effect } from "effect"
import { Component, StrictMode, Suspense, version as reactVersion } from "react"
import type { ReactNode } from "react"
import { describe, expect, it, vi } from "vitest"
import * as QueryCache from "../../src/cache/QueryCache.js"
import * as ContactChannels from "../../src/contact-channels/ContactChannels.js"
import * as Users from "../../src/users/Users.js"
import {
  StackProvider,
  useContactChannels,
  useStackCallback,
  useStackMutation,
  useStackQuery,
  useStackSuspenseQuery,
  useSuspenseUser,
  useUser
} from "../../react/index.js"
import type { StackErrorHandler } from "../../react/index.js"
import { useFreshApp } from "./freshApp.js"
import type { App } from "./support.js"
import { makeApp } from "./support.js"

let app: App

useFreshApp((made) => (app = made))

const me = "GET /users/me"

const Provider = (props: { readonly children: ReactNode; readonly onError?: StackErrorHandler }) => (
  <StackProvider runtime={app.runtime} onError={props.onError}>
    {props.children}
  </StackProvider>
)

const UserName = (props: { readonly id: number; readonly seen?: Array<string> }) => {
  const user = useUser()
  const text = user.status === "success" ? (user.data === null ? "nobody" : (user.data.primaryEmail ?? "?")) : user.status
  props.seen?.push(text)
  return <span data-testid={`user-${props.id}`}>{text}</span>
}

const allShow = async (count: number, text: string) =>
  waitFor(() => {
    for (let id = 0; id < count; id++) expect(screen.getByTestId(`user-${id}`).textContent).toBe(text)
  })

describe(`React ${reactVersion} hooks`, () => {
  it("many components using useUser send 1 request", async () => {
    await app.signUp("ada@example.com")
    render(
      <Provider>
        {Array.from({ length: 12 }, (_, id) => <UserName key={id} id={id} />)}
      </Provider>
    )
    await allShow(12, "ada@example.com")
    expect(app.count(me)).toBe(1)
  })

  it("re-renders after sign-in and sign-out, and never shows the previous user's data", async () => {
    await app.signUp("bob@example.com")
    await app.signOut()
    const seen: Array<string> = []
    render(
      <Provider>
        <UserName id={0} seen={seen} />
        <UserName id={1} />
      </Provider>
    )
    await allShow(2, "nobody")
    await act(() => app.signUp("ada@example.com"))
    await allShow(2, "ada@example.com")
    await act(() => app.signOut())
    await allShow(2, "nobody")
    const afterSignOut = seen.length
    await act(() => app.signIn("bob@example.com"))
    await allShow(2, "bob@example.com")
    // between bob's sign-in and bob's data, only "loading" (never ada)
    expect(seen.slice(afterSignOut).filter((text) => text !== "loading" && text !== "nobody")).toEqual(
      seen.slice(afterSignOut).filter((text) => text === "bob@example.com")
    )
    expect(seen).not.toContain("?")
  })

  it("unmount interrupts the query's fiber, without a state update afterwards", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {})
    let started = false
    let interrupted = false
    const Waiting = () => {
      const query = useStackQuery(
        Effect.sync(() => {
          started = true
        }).pipe(
          Effect.andThen(Effect.never),
          Effect.onInterrupt(() =>
            Effect.sync(() => {
              interrupted = true
            })
          )
        ),
        []
      )
      return <span>{query.status}</span>
    }
    const view = render(
      <Provider>
        <Waiting />
      </Provider>
    )
    await waitFor(() => expect(started).toBe(true))
    expect(interrupted).toBe(false)
    view.unmount()
    await waitFor(() => expect(interrupted).toBe(true))
    expect(errors).not.toHaveBeenCalled()
    errors.mockRestore()
  })

  it("unmount during a cached read, then mount again: the read is asked again, never the interrupted one joined", async () => {
    let fetches = 0
    let interrupted = 0
    // the first fetch never answers; its only reader leaving interrupts it
    const read = QueryCache.cached(
      ["test", "unmounted-read"],
      Effect.suspend(() => {
        fetches += 1
        return fetches === 1 ? Effect.never : Effect.succeed(`answer ${fetches}`)
      }).pipe(
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            interrupted += 1
          })
        )
      )
    )
    const Shown = (props: { readonly id: number }) => {
      const query = useStackQuery(read, [])
      return <span data-testid={`read-${props.id}`}>{query.status === "success" ? query.data : query.status}</span>
    }
    const first = render(
      <Provider>
        <Shown id={0} />
      </Provider>
    )
    await waitFor(() => expect(fetches).toBe(1))
    first.unmount()
    await waitFor(() => expect(interrupted).toBe(1))
    render(
      <Provider>
        <Shown id={1} />
      </Provider>
    )
    await waitFor(() => expect(screen.getByTestId("read-1").textContent).toBe("answer 2"))
    expect(fetches).toBe(2)
  })

  it("StrictMode: double mount keeps one fiber and one request", async () => {
    await app.signUp("ada@example.com")
    let runs = 0
    const Counted = () => {
      const query = useStackQuery(
        Effect.sync(() => {
          runs += 1
        }).pipe(Effect.andThen(Users.getCurrent())),
        []
      )
      return <span data-testid="counted">{query.status}</span>
    }
    render(
      <StrictMode>
        <Provider>
          <Counted />
          {Array.from({ length: 5 }, (_, id) => <UserName key={id} id={id} />)}
        </Provider>
      </StrictMode>
    )
    await allShow(5, "ada@example.com")
    await waitFor(() => expect(screen.getByTestId("counted").textContent).toBe("success"))
    expect(runs).toBe(1)
    expect(app.count(me)).toBe(1)
  })

  it("Suspense form: shows the fallback, then the user; many components share one request", async () => {
    await app.signUp("ada@example.com")
    const Name = (props: { readonly id: number }) => {
      const user = useSuspenseUser()
      return <span data-testid={`user-${props.id}`}>{user?.primaryEmail ?? "nobody"}</span>
    }
    render(
      <Provider>
        <Suspense fallback={<span data-testid="fallback">loading</span>}>
          <Name id={0} />
          <Name id={1} />
          <Name id={2} />
        </Suspense>
      </Provider>
    )
    expect(screen.getByTestId("fallback").textContent).toBe("loading")
    await allShow(3, "ada@example.com")
    expect(app.count(me)).toBe(1)
  })

  it("Suspense form: a failure reaches the error boundary as the typed error", async () => {
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
      const value = useStackSuspenseQuery(Effect.fail(new Boom({ message: "it broke" })), [])
      return <span>{String(value)}</span>
    }
    render(
      <Provider>
        <Boundary>
          <Suspense fallback={<span>loading</span>}>
            <Failing />
          </Suspense>
        </Boundary>
      </Provider>
    )
    await waitFor(() => expect(screen.getByTestId("boundary").textContent).toBe("Boom: it broke"))
    errors.mockRestore()
  })

  it("an unhandled mutation failure reaches the provider's onError with the typed error", async () => {
    const onError = vi.fn<StackErrorHandler>()
    const Rename = () => {
      const rename = useStackMutation((name: string) => Users.updateCurrent({ displayName: name }))
      return (
        <button type="button" onClick={() => void rename.run("Ada")}>
          {rename.pending ? "saving" : "rename"}
        </button>
      )
    }
    render(
      <Provider onError={onError}>
        <Rename />
      </Provider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    const error = onError.mock.calls[0]![0] as { readonly _tag: string }
    expect(error._tag).toBe("UserNotSignedIn")
  })

  it("a mutation whose component shows `error` (handlesError) handles it: onError is not called", async () => {
    const onError = vi.fn<StackErrorHandler>()
    const Rename = () => {
      const rename = useStackMutation((name: string) => Users.updateCurrent({ displayName: name }), { handlesError: true })
      const error = rename.error
      return (
        <>
          <button type="button" onClick={() => void rename.run("Ada")}>
            rename
          </button>
          <span data-testid="error">{error === undefined ? "" : error._tag}</span>
        </>
      )
    }
    render(
      <Provider onError={onError}>
        <Rename />
      </Provider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(screen.getByTestId("error").textContent).toBe("UserNotSignedIn"))
    expect(onError).not.toHaveBeenCalled()
  })

  it("reading a mutation's error has no side effect: without handlesError the failure still reaches the provider's onError", async () => {
    const onError = vi.fn<StackErrorHandler>()
    const Rename = () => {
      const rename = useStackMutation((name: string) => Users.updateCurrent({ displayName: name }))
      const error = rename.error
      return (
        <>
          <button type="button" onClick={() => void rename.run("Ada")}>
            rename
          </button>
          <span data-testid="error">{error === undefined ? "" : error._tag}</span>
        </>
      )
    }
    render(
      <Provider onError={onError}>
        <Rename />
      </Provider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(screen.getByTestId("error").textContent).toBe("UserNotSignedIn"))
    expect(onError).toHaveBeenCalledTimes(1)
    expect((onError.mock.calls[0]![0] as { readonly _tag: string })._tag).toBe("UserNotSignedIn")
  })

  it("a mutation's error is a plain field, not a getter", async () => {
    const results: Array<object> = []
    const Rename = () => {
      const rename = useStackMutation((name: string) => Users.updateCurrent({ displayName: name }), { handlesError: true })
      results.push(rename)
      return (
        <button type="button" onClick={() => void rename.run("Ada")}>
          {rename.error?._tag ?? "rename"}
        </button>
      )
    }
    render(
      <Provider>
        <Rename />
      </Provider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(screen.getByRole("button").textContent).toBe("UserNotSignedIn"))
    for (const result of results) {
      const descriptor = Object.getOwnPropertyDescriptor(result, "error")
      expect(descriptor?.get).toBeUndefined()
      expect("value" in (descriptor ?? {})).toBe(true)
    }
  })

  it("a mutation's onError option handles its typed failure: the provider's onError is not called", async () => {
    const onError = vi.fn<StackErrorHandler>()
    const handled: Array<string> = []
    const Rename = () => {
      const rename = useStackMutation((name: string) => Users.updateCurrent({ displayName: name }), {
        onError: (error) => handled.push(error._tag)
      })
      return (
        <button type="button" onClick={() => void rename.run("Ada")}>
          rename
        </button>
      )
    }
    render(
      <Provider onError={onError}>
        <Rename />
      </Provider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(handled).toEqual(["UserNotSignedIn"]))
    expect(onError).not.toHaveBeenCalled()
  })

  it("a defect of a mutation with handlesError still reaches the provider's onError", async () => {
    const onError = vi.fn<StackErrorHandler>()
    const Crash = () => {
      const crash = useStackMutation(() => Effect.die(new Error("bug")), { handlesError: true })
      return (
        <button type="button" onClick={() => void crash.run()}>
          crash
        </button>
      )
    }
    render(
      <Provider onError={onError}>
        <Crash />
      </Provider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(onError).toHaveBeenCalledTimes(1))
    expect((onError.mock.calls[0]![0] as Error).message).toBe("bug")
  })

  it("the default onError shows window.alert with the error's message", async () => {
    // happy-dom has no window.alert, and vitest 5 spies only on functions: a stub stands for the browser's
    const alert = vi.fn((_message?: unknown) => {})
    vi.stubGlobal("alert", alert)
    const SignOutButton = () => {
      const fail = useStackCallback(() => Users.updateCurrent({ displayName: "x" }))
      return (
        <button type="button" onClick={() => fail()}>
          go
        </button>
      )
    }
    render(
      <Provider>
        <SignOutButton />
      </Provider>
    )
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => expect(alert).toHaveBeenCalledTimes(1))
    expect(String(alert.mock.calls[0]![0])).toMatch(/sign/i)
    vi.unstubAllGlobals()
  })

  it("a mutation through the SDK refreshes the hooks that read what it changed (one request for them all)", async () => {
    await app.signUp("ada@example.com")
    const Channels = (props: { readonly id: number }) => {
      const channels = useContactChannels()
      return (
        <span data-testid={`channels-${props.id}`}>
          {channels.status === "success" ? channels.data.map((channel) => channel.value).sort().join(",") : channels.status}
        </span>
      )
    }
    const Add = () => {
      const add = useStackMutation((value: string) => ContactChannels.create({ value, usedForAuth: false }))
      return (
        <button type="button" onClick={() => void add.run("second@example.com")}>
          add
        </button>
      )
    }
    render(
      <Provider>
        <Channels id={0} />
        <Channels id={1} />
        <Add />
      </Provider>
    )
    await waitFor(() => expect(screen.getByTestId("channels-0").textContent).toBe("ada@example.com"))
    expect(app.count("GET /contact-channels")).toBe(1)
    fireEvent.click(screen.getByRole("button"))
    await waitFor(() => {
      for (const id of [0, 1]) expect(screen.getByTestId(`channels-${id}`).textContent).toBe("ada@example.com,second@example.com")
    })
    expect(app.count("GET /contact-channels")).toBe(2)
  })

  it("refetch invalidates what the query read and reads it again", async () => {
    await app.signUp("ada@example.com")
    let refetch: () => void = () => {}
    const Name = () => {
      const user = useUser()
      refetch = user.refetch
      return <span data-testid="user-0">{user.status === "success" ? (user.data?.displayName ?? "none") : user.status}</span>
    }
    render(
      <Provider>
        <Name />
      </Provider>
    )
    await allShow(1, "none")
    // changed from another device: this app's cache cannot know, only a refetch sees it
    const other = await makeApp(app.emulator, undefined, { tokenStore: "memory" })
    await other.signIn("ada@example.com")
    await other.runtime.runPromise(Users.updateCurrent({ displayName: "Changed elsewhere" }))
    await other.dispose()
    act(() => refetch())
    await allShow(1, "Changed elsewhere")
    expect(app.count(me)).toBe(2)
  })
})
