/**
 * stack-auth-effect/react: the React binding (provider and hooks).
 *
 * @module
 */
export { StackProvider, useStackRuntime } from "./StackProvider.js"
export type { StackProviderProps, StackRuntime } from "./StackProvider.js"
