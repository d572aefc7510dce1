/**
 * Where the app finds the API and its project: `npm start` (../server.ts) writes them into
 * index.html as `window.__STACK_DEMO__`.
 */
interface DemoConfig {
  readonly apiUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly demoUser: { readonly email: string; readonly password: string }
}

const injected = (globalThis as { readonly __STACK_DEMO__?: DemoConfig }).__STACK_DEMO__
if (injected === undefined) {
  throw new Error("The demo app needs its configuration: start it with `npm start` (examples/react-app/start.ts).")
}

/** The app's configuration. */
export const config: DemoConfig = injected
