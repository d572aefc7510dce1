import * as Context from "effect/Context"
import type { SessionShape } from "../Session.js"

/** The session tag, in a leaf module so the transport can depend on it without a cycle. */
export class Session extends /* @__PURE__ */ Context.Tag("stack-auth-effect/Session")<Session, SessionShape>() {}

/** Minimum remaining validity for reusing an access token. */
export const minimumRemaining = 20_000
