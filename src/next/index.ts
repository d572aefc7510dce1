/**
 * stack-auth-effect/next: helpers for server rendering in a framework (structural types, no
 * dependency on the framework): token stores over incoming requests and the `x-stack-auth`
 * hand-over header.
 *
 * @module
 */
export { authHeaders, layer as layerRequestTokenStore, make as makeRequestTokenStore } from "../session/RequestTokenStore.js"
export * as Cookies from "../session/cookies.js"
