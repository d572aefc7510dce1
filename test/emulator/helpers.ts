/**
 * Helpers for the emulator tests: build an emulator, send wire requests to `handle`, read answers.
 */
import { spawn } from "node:child_process"
import { Effect } from "effect"
import * as Emulator from "../../src/emulator/Emulator.js"
import { emulatorCli } from "../support/emulatorCli.js"

/** A wire answer, read. */
export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  /** The parsed JSON body (undefined when the body is not JSON). */
  readonly json: any
}

/** What to send. */
export interface Send {
  readonly method?: string
  /** Path below the origin, e.g. `/api/v1/users/me`. */
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  /** JSON body. */
  readonly body?: unknown
  /** Raw body (with the content-type given in headers). */
  readonly raw?: string
}

/** The origin the tests use for in-process requests. */
export const origin = "http://localhost:8102"

/** Sends one request to an emulator and reads the answer. */
export const send = (emulator: Emulator.Emulator, input: Send): Effect.Effect<Answer> =>
  Effect.gen(function* () {
    const headers = new Headers(input.headers)
    let body: string | undefined
    if (input.body !== undefined) {
      body = JSON.stringify(input.body)
      if (!headers.has("content-type")) headers.set("content-type", "application/json")
    } else if (input.raw !== undefined) {
      body = input.raw
    }
    const response = yield* emulator.handle(
      new Request(`${origin}${input.path}`, { method: input.method ?? "GET", headers, ...(body !== undefined ? { body } : {}) })
    )
    const text = yield* Effect.promise(() => response.text())
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, text, json }
  })

/** Client-access headers of a project (with its publishable key). */
export const clientHeaders = (
  credentials: Pick<Emulator.ProjectCredentials, "projectId" | "publishableClientKey">,
  extra: Readonly<Record<string, string>> = {}
): Record<string, string> => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "client",
  "x-stack-publishable-client-key": credentials.publishableClientKey,
  ...extra
})

/** Server-access headers of a project. */
export const serverHeaders = (
  credentials: Emulator.ProjectCredentials,
  extra: Readonly<Record<string, string>> = {}
): Record<string, string> => ({
  "x-stack-project-id": credentials.projectId,
  "x-stack-access-type": "server",
  "x-stack-secret-server-key": credentials.secretServerKey,
  ...extra
})

/** Signs a new user up with a password; returns the tokens. */
export const signUp = (
  emulator: Emulator.Emulator,
  credentials: Emulator.ProjectCredentials,
  email: string,
  password = "correct horse battery",
  extraBody: Readonly<Record<string, unknown>> = {}
): Effect.Effect<{ readonly access_token: string; readonly refresh_token: string; readonly user_id: string }> =>
  Effect.gen(function* () {
    const answer = yield* send(emulator, {
      method: "POST",
      path: "/api/v1/auth/password/sign-up",
      headers: clientHeaders(credentials),
      body: { email, password, ...extraBody }
    })
    if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status} ${answer.text}`)
    return answer.json
  })

/** A fresh emulator (fewer PBKDF2 iterations keep the suite fast). */
export const makeEmulator = (options: Emulator.EmulatorOptions = {}) => Emulator.make({ passwordHashIterations: 1000, ...options }).pipe(Effect.orDie)

/** What a CLI run printed, and its exit code. */
export interface CliRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs the emulator's CLI (src/emulator/cli.ts, bundled: ../support/emulatorCli.ts) to its exit; killed if interrupted. */
export const runCli = (args: ReadonlyArray<string>): Effect.Effect<CliRun> =>
  Effect.callback<CliRun>((resume) => {
    const child = spawn(process.execPath, [emulatorCli(), ...args], { cwd: process.cwd(), stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("exit", (code) => resume(Effect.succeed({ code, stdout, stderr })))
    return Effect.sync(() => {
      if (child.exitCode === null) child.kill("SIGKILL")
    })
  })
