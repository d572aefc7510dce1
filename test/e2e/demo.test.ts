/** `npm run demo` runs the terminal walkthrough against the embedded emulator: it completes. */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../", import.meta.url))

describe("the walkthrough (npm run demo)", () => {
  it("starts the emulator on 127.0.0.1 and completes the walkthrough", async () => {
    const child = spawn("npm", ["run", "--silent", "demo", "--", "--once", "--port", "0"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
    expect(code, output).toBe(0)
    expect(output).toMatch(/listening on http:\/\/127\.0\.0\.1:\d+/)
    expect(output).toContain("EmailPasswordMismatch")
    expect(output).toContain("Done.")
    expect(output).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/) // no token text printed
  }, 60_000)
})
