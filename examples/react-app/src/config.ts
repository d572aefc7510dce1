/**
 * Where the app finds the API and its project: `npm start` (../server.ts) passes them to Vite,
 * which puts them in the bundle as `__STACK_DEMO__`.
 */
declare const __STACK_DEMO__: {
  readonly apiUrl: string
  readonly projectId: string
  readonly publishableClientKey: string
  readonly demoUser: { readonly email: string; readonly password: string }
}

/** The app's configuration. */
export const config = __STACK_DEMO__
