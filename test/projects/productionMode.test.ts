/** ProductionMode.check: every message of SPEC.md §5, each linking to the project's domain settings. */
import { describe, expect, it } from "@effect/vitest"
import * as ProductionMode from "../../src/projects/ProductionMode.js"

const id = "3f6a1a52-8d1e-4c7e-9b8f-2d5c1e0a7b91"
const fix = `/projects/${id}/domains`
const project = (allowLocalhost: boolean, domains: ReadonlyArray<string>) => ({
  id,
  config: { allowLocalhost, domains: domains.map((domain) => ({ domain, handlerPath: "/handler" })) }
})

describe("ProductionMode.check", () => {
  const table: ReadonlyArray<readonly [string, ReturnType<typeof project>, ReadonlyArray<string>]> = [
    ["a ready project", project(false, ["https://app.example.com", "https://*.example.org"]), []],
    ["allow localhost on", project(true, []), ["Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings"]],
    ["not a URL", project(false, ["not a url"]), ["Trusted domain is not a valid URL: not a url"]],
    ["localhost", project(false, ["https://localhost:3000"]), ["Localhost domains are not allowed to be trusted in production mode: https://localhost:3000"]],
    ["*.localhost", project(false, ["https://app.localhost"]), ["Localhost domains are not allowed to be trusted in production mode: https://app.localhost"]],
    ["127.0.0.1", project(false, ["http://127.0.0.1:8080"]), ["Localhost domains are not allowed to be trusted in production mode: http://127.0.0.1:8080"]],
    ["direct IP", project(false, ["https://203.0.113.7"]), ["Direct IPs are not valid for trusted domains in production mode: https://203.0.113.7"]],
    ["not HTTPS", project(false, ["http://app.example.com"]), ["Trusted domains should be HTTPS: http://app.example.com"]],
    [
      "every problem, in order",
      project(true, ["nope", "http://localhost", "http://10.0.0.1", "http://example.com", "https://ok.example.com"]),
      [
        "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
        "Trusted domain is not a valid URL: nope",
        "Localhost domains are not allowed to be trusted in production mode: http://localhost",
        "Direct IPs are not valid for trusted domains in production mode: http://10.0.0.1",
        "Trusted domains should be HTTPS: http://example.com"
      ]
    ]
  ]
  for (const [name, input, messages] of table) {
    it(name, () => {
      expect(ProductionMode.check(input)).toEqual(messages.map((message) => ({ message, relativeFixUrl: fix })))
    })
  }
})
