import { Layer, ManagedRuntime } from "effect"
import { createElement } from "react"
import { renderToString } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { StackProvider, useStackRuntime } from "../../react/index.js"

describe("StackProvider", () => {
  it("exposes the runtime the app built to the components below it", () => {
    const runtime = ManagedRuntime.make(Layer.empty)
    let seen: unknown = null
    const Probe = () => {
      seen = useStackRuntime()
      return createElement("span", null, "ok")
    }
    const html = renderToString(createElement(StackProvider, { runtime }, createElement(Probe)))
    expect(html).toContain("ok")
    expect(seen).toBe(runtime)
  })

  it("a hook outside the provider throws an error that says what to do", () => {
    const Probe = () => {
      useStackRuntime()
      return null
    }
    expect(() => renderToString(createElement(Probe))).toThrow(/inside <StackProvider/)
  })
})
