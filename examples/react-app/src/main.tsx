/** Entry point: the runtime goes into `StackProvider` once, at the root. */
import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { StackProvider } from "stack-auth-effect/react"
import { App } from "./App.js"
import { runtime } from "./runtime.js"

const container = document.getElementById("root")
if (container === null) throw new Error("index.html has no #root element")

createRoot(container).render(
  <StrictMode>
    <StackProvider runtime={runtime}>
      <App />
    </StackProvider>
  </StrictMode>
)
