"use client"
/**
 * The CLI login confirmation page in React (the official `useCliAuthConfirmation`): the page at
 * `/handler/cli-auth-confirm?login_code=…` (see `Cli`) shows whether the CLI holds an anonymous
 * session, and lets the signed-in user confirm (hand the browser session to the CLI) or first take
 * over the CLI's anonymous session.
 *
 * @module
 */
import * as Effect from "effect/Effect"
import * as Cli from "../src/auth/Cli.js"
import { useMutationWith, useQueryWith } from "./internal/hooks.js"
import type { Bound } from "./internal/hooks.js"
import type { StackMutationResult, StackQueryResult } from "./internal/types.js"

type ErrorOf<F extends (...args: ReadonlyArray<never>) => Effect.Effect<unknown, unknown, unknown>> = Effect.Error<ReturnType<F>>

/** What {@link useCliAuthConfirmation} returns. */
export interface CliAuthConfirmation {
  /** Whether the CLI holds an anonymous session the browser may claim (`Cli.checkSessionState`). */
  readonly sessionState: StackQueryResult<"anonymous" | "none", ErrorOf<typeof Cli.checkSessionState>>
  /** Confirms: hands the signed-in user's session to the CLI (`Cli.complete`); `data` is `true` once done. */
  readonly confirm: StackMutationResult<[], true, ErrorOf<typeof Cli.complete>>
  /** Signs the browser in as the CLI's anonymous user first (`Cli.claimAnonymousSession`); `data` is `true` once done. */
  readonly claimAnonymousSession: StackMutationResult<[], true, ErrorOf<typeof Cli.claimAnonymousSession>>
}

/** The hook over a runtime (`undefined`: the nearest provider's). */
export const makeCliHooks = (bound: Bound) => ({
  /**
   * The confirmation page's state and actions for `loginCode` (the page's `login_code`
   * parameter). Failures of `confirm` and `claimAnonymousSession` stay with the component
   * (`error`), which shows them.
   */
  useCliAuthConfirmation: (loginCode: string): CliAuthConfirmation => {
    const sessionState = useQueryWith("useCliAuthConfirmation", bound, Cli.checkSessionState(loginCode), [loginCode], {})
    const confirm = useMutationWith("useCliAuthConfirmation", bound, () => Effect.as(Cli.complete(loginCode), true as const), {
      handlesError: true
    })
    const claimAnonymousSession = useMutationWith(
      "useCliAuthConfirmation",
      bound,
      () => Effect.as(Cli.claimAnonymousSession(loginCode), true as const),
      { handlesError: true }
    )
    return { sessionState, confirm, claimAnonymousSession }
  }
})

/** The hooks {@link makeCliHooks} makes. */
export type CliHooks = ReturnType<typeof makeCliHooks>

/**
 * The CLI login confirmation page's state and actions for a login code (see the module).
 *
 * @example
 * ```tsx
 * import { errorMessage, useCliAuthConfirmation } from "stack-auth-effect/react"
 *
 * const ConfirmCli = (props: { readonly loginCode: string }) => {
 *   const cli = useCliAuthConfirmation(props.loginCode)
 *   if (cli.confirm.data === true) return <p>You can close this page and return to the terminal.</p>
 *   return (
 *     <>
 *       <button disabled={cli.confirm.pending} onClick={() => void cli.confirm.run()}>Authorize the CLI</button>
 *       {cli.confirm.error === undefined ? null : <p role="alert">{errorMessage(cli.confirm.error)}</p>}
 *     </>
 *   )
 * }
 * ```
 */
export const useCliAuthConfirmation = makeCliHooks(undefined).useCliAuthConfirmation
