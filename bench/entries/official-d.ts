/** Bundle entry (d), official SDK: a server app listing users. */
import { StackServerApp } from "@stackframe/js"

const app = new StackServerApp({
  projectId: "7c4a9d3e-0f1b-4c2d-9e8f-1a2b3c4d5e6f",
  publishableClientKey: "pck_bench",
  secretServerKey: "ssk_bench",
  tokenStore: "memory"
})

export const listUsers = () => app.listUsers({ limit: 100 })
