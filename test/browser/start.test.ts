/**
 * `npm start` (examples/react-app/start.ts): one command brings up the emulator and the demo app
 * on 127.0.0.1, prints the app URL and the demo credentials, serves the app's HTML and the API,
 * and stops both on SIGTERM. Needs no browser.
 */
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../", import.meta.url))

const waitFor = (read: () => string, pattern: RegExp, timeoutMillis: number): Promise<RegExpExecArray> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const check = () => {
      const match = pattern.exec(read())
      if (match !== null) return resolve(match)
      if (Date.now() - started > timeoutMillis) return reject(new Error(`Timed out waiting for ${pattern}. Output:\n${read()}`))
      setTimeout(check, 100)
    }
    check()
  })

const refused = async (url: string): Promise<boolean> => {
  try {
    await fetch(url)
    return false
  } catch {
    return true
  }
}

describe("npm start", () => {
  it("serves the demo app and the emulator on 127.0.0.1, prints the credentials, and stops on Ctrl-C", async () => {
    const child = spawn("npm", ["start", "--silent", "--", "--port", "0", "--emulator-port", "0", "--quiet"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      detached: true
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal }))
    )
    try {
      await waitFor(() => output, /Press Ctrl-C to stop/, 180_000)
      const app = /App\s+http:\/\/localhost:(\d+)\//.exec(output)
      const api = /API\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      expect(app, output).not.toBeNull()
      expect(api, output).not.toBeNull()
      expect(output).toMatch(/Demo user\s+demo@example\.com/)
      expect(output).toMatch(/Password\s+\S+/)

      // the app listens on 127.0.0.1 and serves its HTML for every handler route (a SPA)
      for (const path of ["/", "/handler/sign-in", "/handler/account-settings"]) {
        const page = await fetch(`http://127.0.0.1:${app![1]}${path}`)
        expect(page.status).toBe(200)
        const html = await page.text()
        expect(html).toContain("<div id=\"root\"></div>")
        expect(html).toContain("/src/main.tsx")
      }
      // the emulator's health (welcome) route
      const health = await fetch(`${api![1]}/api/v1`)
      expect(health.status).toBe(200)
      expect(await health.text()).toContain("Welcome to the Stack API endpoint!")
      // the demo user is seeded
      const signIn = await fetch(`${api![1]}/api/v1/auth/password/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-stack-project-id": /Project\s+(\S+)/.exec(output)![1]!, "x-stack-access-type": "client" },
        body: JSON.stringify({ email: "demo@example.com", password: /Password\s+(\S+)/.exec(output)![1] })
      })
      expect(signIn.status).toBe(200)

      // Ctrl-C in a terminal: SIGINT to the whole process group (npm, tsx, the demo)
      process.kill(-child.pid!, "SIGINT")
      const exit = await Promise.race([
        exited,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`npm start did not exit within 60 s of SIGINT. Output:\n${output}`)), 60_000))
      ])
      // npm itself ends by the signal, the demo exits 0 after stopping both servers
      expect(exit.code === 0 || exit.signal === "SIGINT", JSON.stringify(exit)).toBe(true)
      await waitFor(() => output, /Stopped\./, 60_000)
      expect(await refused(`${api![1]}/api/v1`)).toBe(true)
      expect(await refused(`http://127.0.0.1:${app![1]}/`)).toBe(true)
    } finally {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, "SIGKILL")
    }
    // generous: under a loaded CI machine (the other test worker busy) Vite's first start alone took most of 120 s
  }, 360_000)
})
