/**
 * `npm start`: the emulator and the demo React app together, on 127.0.0.1; prints the app's URL
 * and the demo credentials, and stops both on Ctrl-C (SIGINT) or SIGTERM.
 *
 * Flags: `--port N` (the app, default 3000), `--emulator-port N` (the API, default 8102); 0 picks
 * a free port. `--quiet` keeps Vite's own log lines out.
 *
 * The demo project is the emulator's default one, the same as `Emulator.make()` and
 * `npx stack-auth-emulator` start: the demo user and every switch of `defaults.demoConfig` on; the
 * summary printed at start lists them (`npm run emulator -- --help` for the flags that change them).
 */
import { describeDemoSeed } from "stack-auth-effect/emulator"
import { startDemo } from "./server.js"

const usage = "Usage: npm start -- [--port 3000] [--emulator-port 8102] [--quiet]"

/** How long a stop waits for the servers to close before the process exits anyway. */
const closeWaitMillis = 15_000

const parse = (argv: ReadonlyArray<string>) => {
  const options: { port?: number; emulatorPort?: number; quiet?: boolean } = {}
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i]!.split(/=(.*)/s, 2) as [string, string | undefined]
    if (name === "--quiet") {
      options.quiet = true
      continue
    }
    if (name !== "--port" && name !== "--emulator-port") throw new Error(`Unknown argument "${argv[i]}".\n${usage}`)
    const text = inline ?? argv[++i]
    const value = Number(text)
    if (text === undefined || !Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} needs a port number (0–65535).\n${usage}`)
    if (name === "--port") options.port = value
    else options.emulatorPort = value
  }
  return options
}

const main = async () => {
  let options: ReturnType<typeof parse>
  try {
    options = parse(process.argv.slice(2))
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    process.exit(2)
  }
  const demo = await startDemo({
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.emulatorPort === undefined ? {} : { emulatorPort: options.emulatorPort }),
    logLevel: options.quiet === true ? "warn" : "info"
  })
  console.log(`
  stack-auth-effect demo

  App        ${demo.appUrl}/
  API        ${demo.emulatorUrl}  (the Stack Auth emulator; health: ${demo.emulatorUrl}/api/v1)
  Outbox     ${demo.emulatorUrl}/api/v1/emulator/outbox/page  (e-mails the emulator "sent"; JSON at …/emulator/outbox)

  Demo user  ${demo.demoUser.email}
  Password   ${demo.demoUser.password}
  Project    ${demo.projectId}
${
    describeDemoSeed(demo.emulator.demoSeed, { flags: false })
      .slice(1)
      .map((line) => `  ${line}`)
      .join("\n")
  }
             (the demo of Emulator.make() and npx stack-auth-emulator; npm run emulator -- --help)

  Press Ctrl-C to stop.
`)
  let stopping = false
  let exitCode = 0
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    console.log(`\n  ${signal}: stopping the app and the emulator…`)
    // Vite may wait for its esbuild helper, which a terminal's Ctrl-C (sent to the whole process
    // group) can kill while dependencies are being bundled: the process exits after a bounded wait
    let late = false
    const bounded = new Promise<void>((resolve) =>
      setTimeout(() => {
        late = true
        resolve()
      }, closeWaitMillis).unref()
    )
    Promise.race([demo.close(), bounded]).then(
      () => {
        console.log(late ? `  Stopped. (The app server had not finished closing after ${closeWaitMillis / 1000} s.)` : "  Stopped.")
        process.exit(exitCode)
      },
      (error: unknown) => {
        console.error("  Could not stop cleanly:", error)
        process.exit(1)
      }
    )
  }
  process.on("SIGINT", () => stop("SIGINT"))
  process.on("SIGTERM", () => stop("SIGTERM"))
  // Ctrl-C in a terminal reaches the whole process group: Vite's esbuild helper may die first and
  // its "service was stopped" error arrive before our SIGINT handler runs. Such a failure is
  // reported and the demo stopped cleanly, unless a signal asked for the stop meanwhile.
  const crashed = (error: unknown) => {
    if (stopping) return
    setTimeout(() => {
      if (stopping) return
      console.error("  The app failed:", error instanceof Error ? error.message : error)
      exitCode = 1
      stop("error")
    }, 250)
  }
  process.on("uncaughtException", crashed)
  process.on("unhandledRejection", crashed)
}

main().catch((error: unknown) => {
  console.error("The demo could not start:", error instanceof Error ? error.message : error)
  process.exit(1)
})
