"use client"
/**
 * A sign-in form with the second factor as a step of its own (SPEC.md §4 "Sign-in with MFA"):
 * {@link useMfaSignIn} runs the app's sign-in (password, OTP, passkey…) through `Mfa.continuable`;
 * a TOTP user stops at `"needs-code"`, the form asks for the six-digit code and `submit(code)`
 * finishes the sign-in. The attempt code stays inside the hook (an `Mfa.MfaChallenge` kept in a
 * ref): it is never rendered, put in a URL or logged.
 *
 * @module
 */
import * as Cause from "effect/Cause"
import type * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Result from "effect/Result"
import { useCallback, useEffect, useMemo, useRef, useState } from "react"
import * as Mfa from "../src/auth/Mfa.js"
import type { MultiFactorAuthenticationRequired } from "../src/core/KnownErrors.js"
import { report, useBoundContext } from "./internal/hooks.js"
import type { Bound } from "./internal/hooks.js"
import type { RegisteredServices } from "./register.js"

/**
 * Where the sign-in stands:
 * - `"idle"`: nothing started (or `reset()`);
 * - `"signing-in"`: the first factor runs;
 * - `"needs-code"`: the user has MFA: ask for the six-digit code, then `submit(code)`;
 * - `"submitting"`: the code is being checked;
 * - `"wrong-code"`: the code was wrong (`InvalidTotpCode`); ask again, the attempt stays usable;
 * - `"signed-in"`: done, with the sign-in's value (or the MFA sign-in's `{ userId, isNewUser }`);
 * - `"failed"`: the sign-in failed (wrong password…) or the attempt is no longer accepted (used,
 *   expired after 5 minutes, too many tries): `error` says which; start again.
 */
export type MfaSignInState<A, E> =
  | { readonly step: "idle" }
  | { readonly step: "signing-in" }
  | { readonly step: "needs-code" }
  | { readonly step: "submitting" }
  | { readonly step: "wrong-code" }
  | { readonly step: "signed-in"; readonly value: A | Mfa.MfaSignedIn }
  | { readonly step: "failed"; readonly error: Exclude<E, MultiFactorAuthenticationRequired> | Exclude<Mfa.SubmitError, { readonly _tag: "InvalidTotpCode" }> }

/** What {@link useMfaSignIn} returns. */
export interface MfaSignIn<Args extends ReadonlyArray<unknown>, A, E> {
  /** Where the sign-in stands (see {@link MfaSignInState}). */
  readonly state: MfaSignInState<A, E>
  /** Runs the sign-in with the form's input. */
  readonly signIn: (...args: Args) => Promise<void>
  /** Sends the authenticator's code (in `"needs-code"` or `"wrong-code"`; otherwise does nothing). */
  readonly submit: (code: string) => Promise<void>
  /** Forgets the attempt and goes back to `"idle"`. */
  readonly reset: () => void
}

const idle = { step: "idle" } as const

/** The hook's implementation over a runtime (`undefined`: the nearest provider's). */
export const useMfaSignInWith = <Args extends ReadonlyArray<unknown>, A, E>(
  hook: string,
  bound: Bound,
  signInFn: (...args: Args) => Effect.Effect<A, E, unknown>
): MfaSignIn<Args, A, E> => {
  const context = useBoundContext(hook, bound)
  const runtime = context.runtime
  const [state, setState] = useState<MfaSignInState<A, E>>(idle)
  const challenge = useRef<Mfa.MfaChallenge | undefined>(undefined)
  const latest = useRef({ signInFn, onError: context.onError })
  latest.current = { signInFn, onError: context.onError }
  const mounted = useRef(false)
  useEffect(() => {
    mounted.current = true
    return () => {
      mounted.current = false
    }
  }, [])
  const show = (next: MfaSignInState<A, E>) => {
    if (mounted.current) setState(next)
  }

  const signIn = useCallback(
    async (...args: Args): Promise<void> => {
      challenge.current = undefined
      show({ step: "signing-in" })
      const exit = await runtime.runPromiseExit(Mfa.continuable(latest.current.signInFn(...args)))
      if (Exit.isSuccess(exit)) {
        const step = exit.value as Mfa.SignInStep<A>
        if (step._tag === "SignedIn") show({ step: "signed-in", value: step.value })
        else {
          challenge.current = step.challenge
          show({ step: "needs-code" })
        }
        return
      }
      if (Cause.hasInterruptsOnly(exit.cause)) return show(idle)
      const failure = Cause.findError(exit.cause)
      if (Result.isFailure(failure)) {
        report(exit.cause, latest.current.onError)
        return show(idle)
      }
      show({ step: "failed", error: failure.success as Exclude<E, MultiFactorAuthenticationRequired> })
    },
    // `show` only reads refs and the state setter
    [runtime]
  )

  const submit = useCallback(
    async (code: string): Promise<void> => {
      const pending = challenge.current
      if (pending === undefined) return
      show({ step: "submitting" })
      const exit = await runtime.runPromiseExit(pending.submit(code))
      if (challenge.current !== pending) return
      if (Exit.isSuccess(exit)) {
        challenge.current = undefined
        return show({ step: "signed-in", value: exit.value as Mfa.MfaSignedIn })
      }
      if (Cause.hasInterruptsOnly(exit.cause)) return show({ step: "needs-code" })
      const failure = Cause.findError(exit.cause)
      if (Result.isFailure(failure)) {
        report(exit.cause, latest.current.onError)
        return show({ step: "needs-code" })
      }
      const error = failure.success as Mfa.SubmitError
      if (error._tag === "InvalidTotpCode") return show({ step: "wrong-code" })
      challenge.current = undefined
      show({ step: "failed", error: error as Exclude<Mfa.SubmitError, { readonly _tag: "InvalidTotpCode" }> })
    },
    [runtime]
  )

  const reset = useCallback(() => {
    challenge.current = undefined
    setState(idle)
  }, [])

  return useMemo(() => ({ state, signIn, submit, reset }), [state, signIn, submit, reset])
}

/** The MFA hook for sign-ins needing at most the services `R` (`unknown`: any). */
export interface MfaHooks<R = unknown> {
  /** See {@link useMfaSignIn}. */
  readonly useMfaSignIn: <Args extends ReadonlyArray<unknown>, A, E>(
    signInFn: (...args: Args) => Effect.Effect<A, E, R>
  ) => MfaSignIn<Args, A, E>
}

/** The MFA hook over a runtime (`undefined`: the nearest provider's). */
export const makeMfaHooks = <R = unknown>(bound: Bound): MfaHooks<R> => ({
  // the runtime provides `R` (makeStackHooks' typing); the implementation runs any effect
  useMfaSignIn: <Args extends ReadonlyArray<unknown>, A, E>(signInFn: (...args: Args) => Effect.Effect<A, E, R>) =>
    useMfaSignInWith<Args, A, E>("useMfaSignIn", bound, signInFn as unknown as (...args: Args) => Effect.Effect<A, E, unknown>)
})

/**
 * A sign-in whose second factor is a step of the form (see the module). Typed failures are the
 * form's to show (`state.error`); defects reach the provider's `onError`. Accepts the sign-ins the
 * runtime the app declared (`Register`) can run; with none declared, client access only.
 *
 * @example
 * ```tsx
 * import { Password } from "stack-auth-effect"
 * import { errorMessage, useMfaSignIn } from "stack-auth-effect/react"
 *
 * const SignIn = () => {
 *   const mfa = useMfaSignIn((email: string, password: string) => Password.signInWithPassword({ email, password }))
 *   if (mfa.state.step === "needs-code" || mfa.state.step === "wrong-code") {
 *     return (
 *       <form onSubmit={(event) => { event.preventDefault(); void mfa.submit(new FormData(event.currentTarget).get("code") as string) }}>
 *         <input name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} />
 *         {mfa.state.step === "wrong-code" ? <p role="alert">Wrong code, try again.</p> : null}
 *       </form>
 *     )
 *   }
 *   if (mfa.state.step === "failed") return <p role="alert">{errorMessage(mfa.state.error)}</p>
 *   return <button onClick={() => void mfa.signIn("ada@example.com", "correct horse")}>Sign in</button>
 * }
 * ```
 */
export const useMfaSignIn: MfaHooks<RegisteredServices>["useMfaSignIn"] = makeMfaHooks<RegisteredServices>(undefined).useMfaSignIn
