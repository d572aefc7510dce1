/**
 * Type tests for e-mail templates, sent e-mails and the admin odds and ends: error channels and
 * requirements (admin calls need `AdminAccess`; the feature-support report needs only the client).
 * Checked by `tsc`; a no-op at run time.
 */
import { describe, expectTypeOf, it } from "vitest"
import type { AdminAccess } from "../../src/core/Access.js"
import type { ConnectivityError, HttpError, InvalidArgument, InvalidResponse, RateLimited, UserNotSignedIn } from "../../src/core/Errors.js"
import type * as KnownErrors from "../../src/core/KnownErrors.js"
import type { StackClient } from "../../src/core/StackClient.js"
import type * as Emails from "../../src/emails/Emails.js"
import type * as EmailTemplates from "../../src/emails/EmailTemplates.js"
import type * as Admin from "../../src/projects/Admin.js"
import type { AdminCommon, ErrorOf, RequirementsOf, SuccessOf, Transport } from "./support.js"

type AdminErrors = AdminCommon | UserNotSignedIn | Transport

describe("EmailTemplates", () => {
  it("list: admin errors only; returns the templates", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof EmailTemplates.list>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<SuccessOf<ReturnType<typeof EmailTemplates.list>>>().toEqualTypeOf<ReadonlyArray<EmailTemplates.EmailTemplate>>()
    expectTypeOf<RequirementsOf<ReturnType<typeof EmailTemplates.list>>>().toEqualTypeOf<StackClient | AdminAccess>()
  })

  it("create, update and delete may need a custom e-mail server; update may fail to render", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof EmailTemplates.create>>>().toEqualTypeOf<
      AdminErrors | InvalidArgument | KnownErrors.RequiresCustomEmailServer
    >()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailTemplates.update>>>().toEqualTypeOf<
      AdminErrors | InvalidArgument | KnownErrors.RequiresCustomEmailServer | KnownErrors.EmailRenderingError
    >()
    expectTypeOf<SuccessOf<ReturnType<typeof EmailTemplates.update>>>().toEqualTypeOf<string>()
    expectTypeOf<ErrorOf<ReturnType<typeof EmailTemplates.delete>>>().toEqualTypeOf<
      AdminErrors | InvalidArgument | KnownErrors.RequiresCustomEmailServer
    >()
  })
})

describe("Emails", () => {
  it("sendTestEmail reports a failed send in its answer, not its error channel", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Emails.sendTestEmail>>>().toEqualTypeOf<AdminErrors | InvalidArgument>()
    expectTypeOf<SuccessOf<ReturnType<typeof Emails.sendTestEmail>>>().toEqualTypeOf<Emails.TestEmailResult>()
  })

  it("listSentEmails: admin errors only", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Emails.listSentEmails>>>().toEqualTypeOf<AdminErrors>()
    expectTypeOf<SuccessOf<ReturnType<typeof Emails.listSentEmails>>>().toEqualTypeOf<ReadonlyArray<Emails.SentEmail>>()
  })
})

describe("Admin", () => {
  it("getMetrics and createSvixToken need AdminAccess", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Admin.getMetrics>>>().toEqualTypeOf<AdminErrors | InvalidArgument>()
    expectTypeOf<SuccessOf<ReturnType<typeof Admin.getMetrics>>>().toEqualTypeOf<Admin.Metrics>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Admin.createSvixToken>>>().toEqualTypeOf<StackClient | AdminAccess>()
    expectTypeOf<SuccessOf<ReturnType<typeof Admin.createSvixToken>>>().toEqualTypeOf<Admin.SvixToken>()
  })

  it("checkFeatureSupport needs only the client and fails with transport errors only (an oversized answer is an InvalidResponse)", () => {
    expectTypeOf<ErrorOf<ReturnType<typeof Admin.checkFeatureSupport>>>().toEqualTypeOf<ConnectivityError | RateLimited | HttpError | InvalidResponse>()
    expectTypeOf<SuccessOf<ReturnType<typeof Admin.checkFeatureSupport>>>().toEqualTypeOf<string>()
    expectTypeOf<RequirementsOf<ReturnType<typeof Admin.checkFeatureSupport>>>().toEqualTypeOf<StackClient>()
  })
})
