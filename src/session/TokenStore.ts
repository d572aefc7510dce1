/**
 * Where the user's tokens live. One service, several layers: {@link layerMemory}, a custom
 * get/set pair ({@link layerCustom}), the browser cookie store (`BrowserCookieStore.ts`) and the
 * request-like store for server code (`RequestTokenStore.ts`). All of them obey one contract,
 * checked by one test suite: what was set is what is read, and an empty value clears.
 *
 * Tokens are `Redacted` everywhere; the text `"undefined"` and the empty string are never tokens.
 *
 * @module
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import type { StoredTokens } from "../core/Session.js"
import { isUsableToken } from "../core/Wire.js"

/** The pair of tokens a store holds; either may be absent (defined with the session contract in `core/Session.ts`). */
export type { StoredTokens } from "../core/Session.js"

/** A token store. */
export interface TokenStoreShape {
  /** Reads the current tokens. */
  readonly get: Effect.Effect<StoredTokens>
  /** Replaces both tokens (`Option.none()` clears one). */
  readonly set: (tokens: StoredTokens) => Effect.Effect<void>
  /**
   * Changes made outside this process's writes (another browser tab, a cookie written by the
   * server). Empty for stores nobody else writes to.
   */
  readonly changes: Stream.Stream<StoredTokens>
  /**
   * Calls `listener` synchronously with every change `changes` reports, without a stream or a
   * fiber (what the session watches the store with); returns the function that removes it.
   * Optional: a store without it is watched through `changes`.
   */
  readonly listen?: ((listener: (tokens: StoredTokens) => void) => () => void) | undefined
}

/** The token store service. */
export class TokenStore extends Context.Service<TokenStore, TokenStoreShape>()("stack-auth-effect/TokenStore") {}

/** A store cannot be used here (the cookie store outside a browser, a malformed `x-stack-auth`). */
export class TokenStoreError extends Data.TaggedError("TokenStoreError")<{
  readonly message: string
}> {}

/** No tokens. */
export const empty: StoredTokens = { accessToken: Option.none(), refreshToken: Option.none() }

/** A token text is usable unless empty or the string `"undefined"` / `"null"` (SPEC.md §5). */
export { isUsableToken } from "../core/Wire.js"

/** Wraps a raw token text, rejecting unusable ones. */
export const token = (value: unknown): Option.Option<Redacted.Redacted<string>> => isUsableToken(value) ? Option.some(Redacted.make(value)) : Option.none()

/** Builds stored tokens from raw texts (unusable texts become `none`). */
export const fromStrings = (accessToken: unknown, refreshToken: unknown): StoredTokens => ({
  accessToken: token(accessToken),
  refreshToken: token(refreshToken)
})

/** Two token pairs hold the same texts. */
export const equals = (a: StoredTokens, b: StoredTokens): boolean => {
  const same = (x: Option.Option<Redacted.Redacted<string>>, y: Option.Option<Redacted.Redacted<string>>) =>
    Option.isNone(x) ? Option.isNone(y) : Option.isSome(y) && Redacted.value(x.value) === Redacted.value(y.value)
  return same(a.accessToken, b.accessToken) && same(a.refreshToken, b.refreshToken)
}

/** Drops unusable token texts (empty, `"undefined"`) from a pair before it is stored. */
export const sanitize = (tokens: StoredTokens): StoredTokens => {
  const usable = (value: Redacted.Redacted<string>) => isUsableToken(Redacted.value(value))
  const clean = (value: Option.Option<Redacted.Redacted<string>>) => Option.isNone(value) || usable(value.value)
  // a pair already clean is kept as it is (no new objects per store)
  if (clean(tokens.accessToken) && clean(tokens.refreshToken)) return tokens
  return { accessToken: Option.filter(tokens.accessToken, usable), refreshToken: Option.filter(tokens.refreshToken, usable) }
}

/** An in-memory store (the default): tokens live as long as the layer. */
export const makeMemory = (initial: StoredTokens = empty): Effect.Effect<TokenStoreShape> =>
  Effect.sync((): TokenStoreShape => new MemoryStore(sanitize(initial)))

/** The memory store: one field; its effects are built when read (issue 14: heap per session). */
class MemoryStore implements TokenStoreShape {
  #tokens: StoredTokens
  constructor(tokens: StoredTokens) {
    this.#tokens = tokens
  }
  get get(): Effect.Effect<StoredTokens> {
    return Effect.sync(() => this.#tokens)
  }
  readonly set = (tokens: StoredTokens): Effect.Effect<void> =>
    Effect.sync(() => {
      this.#tokens = sanitize(tokens)
    })
  get changes(): Stream.Stream<StoredTokens> {
    return Stream.empty
  }
}

/** An in-memory token store, optionally seeded. */
export const layerMemory = (initial: StoredTokens = empty): Layer.Layer<TokenStore> => Layer.effect(TokenStore, makeMemory(initial))

/** Get/set functions of a custom store (a database row, secure storage…). */
export interface CustomStoreOptions {
  readonly get: () => Promise<{ readonly accessToken?: string | null; readonly refreshToken?: string | null }> | {
    readonly accessToken?: string | null
    readonly refreshToken?: string | null
  }
  readonly set: (tokens: { readonly accessToken: string | null; readonly refreshToken: string | null }) => Promise<void> | void
}

/**
 * A store over app-supplied functions. A failing or throwing `get` reads as "no tokens"; a failing
 * `set` is retried never and logged without token text.
 */
export const makeCustom = (options: CustomStoreOptions): TokenStoreShape => ({
  get: Effect.tryPromise(async () => options.get()).pipe(
    Effect.map((raw) => fromStrings(raw.accessToken, raw.refreshToken)),
    Effect.catch(() => Effect.logWarning("Custom token store: get failed; treating as signed out").pipe(Effect.as(empty)))
  ),
  set: (tokens) =>
    Effect.tryPromise(async () =>
      options.set({
        accessToken: Option.getOrNull(Option.map(sanitize(tokens).accessToken, Redacted.value)),
        refreshToken: Option.getOrNull(Option.map(sanitize(tokens).refreshToken, Redacted.value))
      })
    ).pipe(Effect.catch(() => Effect.logWarning("Custom token store: set failed"))),
  changes: Stream.empty
})

/** A token store over app-supplied get/set functions. */
export const layerCustom = (options: CustomStoreOptions): Layer.Layer<TokenStore> => Layer.succeed(TokenStore, makeCustom(options))
