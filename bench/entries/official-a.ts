/** Bundle entry (a), official SDK: a client and "get the current user". */
import { StackClientApp } from "@stackframe/js"

const app = new StackClientApp({
  projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f",
  publishableClientKey: "pck_bench",
  tokenStore: "cookie"
})

export const getCurrentUser = () => app.getUser()
