/** Support for the e-mail tests: an emulator whose demo project uses a custom SMTP server (or the shared one), and admin layers. */
import { Effect } from "effect"
import * as Emulator from "../../src/emulator/index.js"
import { Stack } from "../../src/index.js"
import type { EmailConfig } from "../../src/emulator/State.js"
import { makeEmulator } from "../emulator/helpers.js"

/** A custom SMTP server configuration (emulator state view). */
export const customServer: EmailConfig = {
  type: "standard",
  host: "smtp.example.com",
  port: 587,
  username: "mailer",
  password: "smtp-password",
  senderName: "Example",
  senderEmail: "noreply@example.com"
}

/** A fresh emulator; `custom` gives the demo project its own SMTP server. */
export const setup = (custom: boolean) =>
  Effect.gen(function* () {
    const emulator = yield* makeEmulator(custom ? { demo: { config: { emailConfig: customServer } } } : {})
    const httpClient = Emulator.layerHttpClient(emulator)
    const admin = Stack.layerAdmin({ projectId: emulator.demo.projectId, httpClient, superSecretAdminKey: emulator.demo.superSecretAdminKey })
    const client = Stack.layerClient({ projectId: emulator.demo.projectId, httpClient })
    return { emulator, httpClient, admin, client }
  })
