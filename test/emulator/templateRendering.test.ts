/**
 * Issue 16 item 7, issue 27: the emulator renders e-mail templates as the service does
 * (apps/backend/src/lib/email-rendering.tsx at stack-auth 2f719903: bundled by esbuild, rendered
 * by the real `@react-email/components` inside the project's theme) — every default template
 * renders with its texts and variables substituted and HTML-escaped; a source that does not render
 * is a typed failure with the service's wording (esbuild's build error, the thrown error as JSON);
 * a rendering runs in a worker, cut at its time and memory bounds.
 *
 * These were the tests of the former hand-written interpreter, kept as behaviour tests of the real
 * renderer; where react-email's markup differs from what the interpreter wrote, the expectation is
 * react-email's.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import { renderEmailWithTemplate } from "../../src/emulator/rendering/RenderEmail.js"
import type { RenderedEmail, RenderOptions } from "../../src/emulator/rendering/RenderEmail.js"
import { defaultThemes, emptyTheme, newTemplateSource } from "../../src/emulator/rendering/Themes.js"

/** The document type `render` of @react-email/components writes before the HTML. */
const doctype = "<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd\">"

const light = defaultThemes.get("1df07ae6-abf3-4a40-83a5-a1a2cbe336ac")!.tsxSource
const sourceOf = (name: string) => defaultTemplates.find((template) => template.displayName === name)!.tsxSource

const rendered = async (template: string, options: RenderOptions = {}, theme = emptyTheme): Promise<RenderedEmail> => {
  const result = await Effect.runPromise(Effect.result(renderEmailWithTemplate(template, theme, options)))
  if (Result.isFailure(result)) throw new Error(`expected a rendering, got: ${JSON.stringify(result.failure)}`)
  return result.success
}

const failure = async (template: string, options: RenderOptions = {}, theme = emptyTheme): Promise<string> => {
  const result = await Effect.runPromise(Effect.result(renderEmailWithTemplate(template, theme, options)))
  if (Result.isSuccess(result)) throw new Error("expected a failure, got a rendering")
  if (result.failure._tag !== "RenderFailure") throw new Error(`expected a RenderFailure, got ${result.failure._tag}`)
  return result.failure.errorText
}

/**
 * The text of the HTML with tags removed (entities kept), whitespace collapsed; React's `<!-- -->`
 * between adjacent text nodes and react-email's comments removed.
 */
const visible = (html: string) => html.replace(/<!--[\s\S]*?-->/g, "").replace(/<[^>]*>/g, " ").replace(/\s+/g, " ")

const hostile = "<script>alert(\"x\")</script> & 'co'"
const escapedHostile = "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#x27;co&#x27;"

describe("every default template renders with its texts and variables", () => {
  const user = { displayName: "Ada" }
  const project = { displayName: "Acme" }
  const cases: ReadonlyArray<
    { name: string; variables: Record<string, string | number>; subject: string; texts: ReadonlyArray<string>; links: ReadonlyArray<string> }
  > = [
    {
      name: "Email Verification",
      variables: { emailVerificationLink: "https://app.test/verify?code=a1&x=2" },
      subject: "Verify your email at Acme",
      texts: [
        "Verify your email at Acme",
        "Hi, Ada! Please click on the following button to verify your email.",
        "Verify my email",
        "If you were not expecting this email, you can safely ignore it."
      ],
      links: ["https://app.test/verify?code=a1&amp;x=2"]
    },
    {
      name: "Password Reset",
      variables: { passwordResetLink: "https://app.test/reset?code=r1" },
      subject: "Reset your password at Acme",
      texts: ["Reset your password at Acme", "Hi, Ada! Please click on the following button to start the password reset process.", "Reset my password"],
      links: ["https://app.test/reset?code=r1"]
    },
    {
      name: "Magic Link/OTP",
      variables: { magicLink: "https://app.test/magic?code=m1", otp: "ABC123" },
      subject: "Sign in to Acme: Your code is ABC123",
      texts: ["Sign in to Acme", "Hi, Ada! This is your one-time-password for signing in:", "ABC123", "Or you can click on this link to sign in"],
      links: ["https://app.test/magic?code=m1"]
    },
    {
      name: "Team Invitation",
      variables: { teamDisplayName: "Rocket", teamInvitationLink: "https://app.test/join?code=t1" },
      subject: "You have been invited to join Rocket",
      texts: ["You are invited to Rocket", "Hi, Ada! Please click the button below to join the team Rocket", "Join team"],
      links: ["https://app.test/join?code=t1"]
    },
    {
      name: "Sign In Invitation",
      variables: { teamDisplayName: "Rocket", signInInvitationLink: "https://app.test/in?code=s1" },
      subject: "You have been invited to sign in to Acme",
      texts: ["You are invited to sign in to Rocket", "Hi, Ada! Please click on the following link to sign in to your account", "Sign in"],
      links: ["https://app.test/in?code=s1"]
    },
    {
      name: "Payment Receipt",
      variables: { productName: "Pro", quantity: 2, amount: "$58.00", receiptLink: "https://pay.test/r/1" },
      subject: "Your receipt from Acme",
      texts: ["Thanks for your purchase", "Hi, Ada! Your payment for Pro is complete.", "Total paid: $58.00", "Quantity: 2", "View receipt"],
      links: ["https://pay.test/r/1"]
    },
    {
      name: "Payment Failed",
      variables: { productName: "Pro", amount: "$29.00", failureReason: "Card declined", invoiceUrl: "https://pay.test/i/1" },
      subject: "Payment failed for Acme",
      texts: ["We couldn&#x27;t process your payment", "Hi, Ada! Your payment for Pro ($29.00) did not go through.", "Reason: Card declined", "View invoice"],
      links: ["https://pay.test/i/1"]
    }
  ]

  it("the seven defaults are covered", async () => {
    expect(cases.map((c) => c.name)).toEqual(defaultTemplates.map((template) => template.displayName))
  })

  for (const c of cases) {
    it(`${c.name}: subject, category, texts, links`, async () => {
      const email = await rendered(sourceOf(c.name), { user, project, variables: c.variables })
      expect(email.subject).toBe(c.subject)
      expect(email.notificationCategory).toBe("Transactional")
      expect(email.html.startsWith(`${doctype}<html dir="ltr" lang="en">`)).toBe(true)
      expect(email.html).not.toContain("<pre>")
      expect(email.html).not.toContain("className")
      for (const text of c.texts) expect(visible(email.html)).toContain(text)
      for (const link of c.links) expect(email.html).toContain(`href="${link}"`)
    })

    it(`${c.name}: user, project and variables are HTML-escaped`, async () => {
      const variables = Object.fromEntries(Object.entries(c.variables).map(([key, value]) => [key, typeof value === "string" ? hostile : value]))
      const email = await rendered(sourceOf(c.name), { user: { displayName: hostile }, project: { displayName: hostile }, variables })
      expect(email.html).not.toContain("<script>")
      expect(email.html).toContain(escapedHostile)
    })
  }

  it("preview mode: John Doe, My Project, the template's PreviewVariables, the theme's unsubscribe link", async () => {
    const email = await rendered(sourceOf("Magic Link/OTP"), { previewMode: true }, light)
    expect(email.subject).toBe("Sign in to My Project: Your code is 3SLSWZ")
    expect(visible(email.html)).toContain("Hi, John Doe! This is your one-time-password for signing in:")
    expect(email.html).toContain("<a href=\"https://example.com\"")
    expect(visible(email.html)).toContain("Click here to unsubscribe from these emails")
  })

  it("no display name: the conditional leaves out the name", async () => {
    const email = await rendered(sourceOf("Email Verification"), {
      user: { displayName: null },
      project: { displayName: "Acme" },
      variables: { emailVerificationLink: "#" }
    })
    expect(visible(email.html)).toContain("Hi! Please click on the following button")
  })

  it("optional variables absent: the receipt has no button", async () => {
    const email = await rendered(sourceOf("Payment Receipt"), {
      user: { displayName: "Ada" },
      project: { displayName: "Acme" },
      variables: { productName: "Pro", quantity: 1, amount: "$1" }
    })
    expect(email.html).not.toContain("View receipt")
  })

  it("the plain text holds the texts and the link", async () => {
    const email = await rendered(sourceOf("Email Verification"), {
      user: { displayName: "Ada" },
      project: { displayName: "Acme" },
      variables: { emailVerificationLink: "https://app.test/v?code=1&x=2" }
    })
    expect(email.text).toContain("Hi, Ada! Please click on the following button to verify your email.")
    expect(email.text).toContain("https://app.test/v?code=1&x=2")
    expect(email.text).not.toContain("<")
  })

  // react-email's Tailwind (tailwindcss 4) inlines every utility it knows, the responsive `sm:hidden` too (the
  // interpreter's subset kept it a class), writes colours as rgb() and opacity as a percentage
  it("under <Tailwind> the utility classes become inline CSS before the element's style", async () => {
    const source = `import { Tailwind, Button } from "@react-email/components"
import { Subject, NotificationCategory } from "@stackframe/emails"
export function EmailTemplate() {
  return <Tailwind>
    <Subject value="S" /><NotificationCategory value="T" />
    <p className="text-center font-bold sm:hidden" style={{ color: "red" }}>x</p>
    <div className="py-3 px-5 bg-[#f0f0f0] opacity-60">y</div>
    <Button href="https://a.test" className="py-3 px-5">go</Button>
  </Tailwind>
}`
    const html = (await rendered(source)).html
    expect(html).toContain("<p style=\"text-align:center;font-weight:700;display:none;color:red\">x</p>")
    expect(html).toContain(
      "<div style=\"padding-bottom:0.75rem;padding-top:0.75rem;padding-right:1.25rem;padding-left:1.25rem;background-color:rgb(240,240,240);opacity:60%\">y</div>"
    )
    expect(html).toContain(
      "<a href=\"https://a.test\" style=\"line-height:100%;text-decoration:none;display:inline-block;max-width:100%;mso-padding-alt:0px;padding-bottom:12px;padding-top:12px;padding-right:20px;padding-left:20px\" target=\"_blank\">"
    )
    const noTailwind = "export function EmailTheme({ children }) { return <html><body>{children}</body></html> }"
    expect((await rendered(source.replace("<Tailwind>", "<>").replace("</Tailwind>", "</>"), {}, noTailwind)).html).toContain(
      "<p class=\"text-center font-bold sm:hidden\" style=\"color:red\">x</p>"
    )
  })

  it("every default theme wraps a template (with the project's logo when it has one); a new template renders in each", async () => {
    for (const theme of defaultThemes.values()) {
      const email = await rendered(newTemplateSource, {
        previewMode: true,
        themeProps: { projectLogos: { logoUrl: "https://cdn.test/l.png", logoDarkModeUrl: "https://cdn.test/l.png" } }
      }, theme.tsxSource)
      expect(email.subject).toBe("Hello John Doe!")
      expect(visible(email.html)).toContain("Hi John Doe!")
      expect(visible(email.html)).toContain("count is 10")
      expect(email.html).toContain("src=\"https://cdn.test/l.png\"")
      expect(email.html).toContain("<table align=\"center\" width=\"100%\" border=\"0\" cellPadding=\"0\" cellSpacing=\"0\" role=\"presentation\"")
    }
  })
})

describe("sources that do not render are refused with the service's wording", () => {
  const withMarkers = (body: string) =>
    `import { Subject, NotificationCategory } from "@stackframe/emails"\nexport function EmailTemplate({ user }) {\n  return <><Subject value="S" /><NotificationCategory value="Transactional" />${body}</>\n}`

  it("a syntax error is esbuild's build error with its position", async () => {
    expect(await failure("export function EmailTemplate() {\n  return <div>\n}")).toMatch(
      /^Build failed with 2 errors:\nvirtual:\/template\.tsx:\d+:\d+: ERROR: /
    )
    expect(await failure("export const x = 1 +;")).toBe("Build failed with 1 error:\nvirtual:/template.tsx:1:20: ERROR: Unexpected \";\"")
  })

  it("an import that cannot be resolved is esbuild's \"Could not resolve\"", async () => {
    expect(await failure("import { x } from \"left-pad\"\nexport function EmailTemplate() { return x }")).toBe(
      "Build failed with 1 error:\nvirtual:/template.tsx:1:18: ERROR: Could not resolve \"left-pad\""
    )
  })

  it("a name a module does not export, once used: esbuild's error (@stackframe/emails) or the ES module link error", async () => {
    expect(await failure("import { Sender } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <Sender /> }")).toBe(
      "Build failed with 1 error:\nvirtual:/template.tsx:1:9: ERROR: No matching export in \"package-shim:@stackframe/emails\" for import \"Sender\""
    )
    expect(await failure("import { Banner } from \"@react-email/components\"\nexport function EmailTemplate() { return <Banner /> }")).toBe(
      JSON.stringify({ message: "The requested module '@react-email/components' does not provide an export named 'Banner'" })
    )
    const unused =
      "import { Banner } from \"@react-email/components\"\nimport { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"S\" /><NotificationCategory value=\"T\" /></> }"
    expect((await rendered(unused)).subject).toBe("S")
  })

  it("NotificationCategory used without its import: the ReferenceError, as JSON", async () => {
    const source =
      "import { Subject } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"S\" /><NotificationCategory value=\"Transactional\" /></> }"
    expect(await failure(source)).toBe(JSON.stringify({ message: "NotificationCategory is not defined" }))
  })

  // React 19's server renderer reads the undefined element type (the interpreter wrote React's older "Element type is invalid" text)
  it("no EmailTemplate export: React's TypeError on the undefined element type, as JSON", async () => {
    expect(await failure("export const variablesSchema = (v) => v")).toBe(
      JSON.stringify({ message: "Cannot read properties of undefined (reading 'render')" })
    )
  })

  it("variables the schema refuses: arktype's summary", async () => {
    expect(await failure(sourceOf("Email Verification"), { user: { displayName: null }, project: { displayName: "A" } })).toBe(
      JSON.stringify({ message: "emailVerificationLink must be a string (was missing)" })
    )
  })

  it("two Subjects, or a Subject whose value is not a string", async () => {
    expect(await failure(withMarkers("<Subject value=\"again\" />"))).toBe(
      JSON.stringify({ message: "Expected exactly one occurrence of component \"Subject\", found 2." })
    )
    const numeric =
      "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value={1} /><NotificationCategory value=\"Transactional\" /></> }"
    expect(await failure(numeric)).toBe(JSON.stringify({ message: "The \"value\" prop of \"Subject\" must be a string." }))
  })

  it("reading a property of undefined: JavaScript's TypeError text", async () => {
    expect(await failure(withMarkers("{user.address.street}"), { user: { displayName: "A" }, project: { displayName: "P" } })).toBe(
      JSON.stringify({ message: "Cannot read properties of undefined (reading 'street')" })
    )
  })

  it("a template without Subject still renders (the route refuses it, not the renderer)", async () => {
    const email = await rendered(
      "import { NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <NotificationCategory value=\"Transactional\" /> }"
    )
    expect(email.subject).toBeUndefined()
    expect(email.notificationCategory).toBe("Transactional")
  })
})

describe("hostile sources end in a failure within bounds (a worker with a time and memory bound)", () => {
  it("a template that loops forever is stopped at the time bound with EMAIL_RENDERING_ERROR's text", async () => {
    for (const statement of ["while (true) {}", "for (;;) {}"]) {
      expect(await failure(`export function EmailTemplate() { ${statement}; return null }`, { limits: { timeoutMillis: 1_000, maxMemoryMb: 512 } })).toBe(
        "Rendering took longer than 1000 ms and was stopped"
      )
    }
  }, 120_000)

  it("a template that allocates without end is stopped at the memory bound", async () => {
    const source = "export function EmailTemplate() { const all = []; for (;;) all.push(new Array(100000).fill(1)); return null }"
    expect(await failure(source, { limits: { timeoutMillis: 60_000, maxMemoryMb: 128 } })).toBe("Rendering used more than 128 MB of memory and was stopped")
  }, 120_000)

  it("after a stopped rendering the next one renders (a new worker)", async () => {
    await failure("export function EmailTemplate() { for (;;) {} }", { limits: { timeoutMillis: 1_000, maxMemoryMb: 512 } })
    expect((await rendered(sourceOf("Email Verification"), { previewMode: true })).subject).toBe("Verify your email at My Project")
  }, 120_000)

  it("a string doubled 40 times is JavaScript's RangeError, as JSON", async () => {
    const source = "export function EmailTemplate() {\nlet s = \"x\"\nfor (let i = 0; i < 40; i++) s = s + s\nreturn <p>{s}</p> }"
    expect(await failure(source)).toBe(JSON.stringify({ message: "Invalid string length" }))
  }, 120_000)

  it("100 000 nested elements: the call stack's RangeError, as JSON", async () => {
    const deep = `export function EmailTemplate() { return ${"<div>".repeat(100_000)}${"</div>".repeat(100_000)} }`
    expect(await failure(deep)).toBe(JSON.stringify({ message: "Maximum call stack size exceeded" }))
  }, 120_000)

  it(
    "raw HTML of 2^21 `<` with no `>` renders (the interpreter's tag regex took 15 s on 2^18, hours on this)",
    async () => {
      const lines = ["const s0 = \"<\""]
      for (let i = 1; i <= 21; i++) lines.push(`const s${i} = s${i - 1} + s${i - 1}`)
      const source = `export function EmailTemplate() {\n${lines.join("\n")}\nreturn <div dangerouslySetInnerHTML={{ __html: "a<b>c" + s21 }} /> }`
      expect(source.length).toBeLessThan(700)
      const email = await rendered(source)
      expect(email.html).toContain(`<div>a<b>c${"<".repeat(2 ** 21)}</div>`)
      expect(email.text).toBe(`ac${"<".repeat(2 ** 21)}`)
    },
    120_000
  )

  it("spread props cannot inject attributes (React drops the invalid name); variables are plain objects", async () => {
    const source = `import { Subject, NotificationCategory } from "@stackframe/emails"
export function EmailTemplate({ variables }) {
  const evil = { "x onload=alert(1)": "y", "data-ok": "1" }
  return <><Subject value={typeof variables.constructor + typeof variables.__proto__} /><NotificationCategory value="T" /><p {...evil}>hi</p></>
}`
    const email = await rendered(source)
    expect(email.html).toContain("<p data-ok=\"1\">hi</p>")
    expect(email.html).not.toContain("onload")
    expect(email.subject).toBe("functionobject")
  })

  it("a template cannot change what the renderer provides to other renderings", async () => {
    const button = "import { Button } from \"@react-email/components\"\nButton.leak = \"x\"\nexport function EmailTemplate() { return null }"
    expect(await failure(button)).toBe(JSON.stringify({ message: "Cannot add property leak, object is not extensible" }))
    const react =
      "import React from \"react\"\nReact.leak = \"x\"\nimport { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value={React.leak} /><NotificationCategory value=\"T\" /></> }"
    expect((await rendered(react)).subject).toBe("x")
    const reader =
      "import React from \"react\"\nimport { Button } from \"@react-email/components\"\nimport { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value={typeof Button.leak + typeof React.leak} /><NotificationCategory value=\"T\" /></> }"
    expect((await rendered(reader)).subject).toBe("undefinedundefined")
  })

  it("loops, new and classes are JavaScript the template may use (the interpreter refused them)", async () => {
    const source = `import { Subject, NotificationCategory } from "@stackframe/emails"
class Greeter { constructor(name) { this.name = name } hello() { return "Hello " + this.name } }
export function EmailTemplate() {
  let items = []
  for (let i = 0; i < 3; i++) items.push(<li key={i}>{new Greeter("n" + i).hello()}</li>)
  return <><Subject value={new Greeter("Ada").hello()} /><NotificationCategory value="T" /><ul>{items}</ul></>
}`
    const email = await rendered(source)
    expect(email.subject).toBe("Hello Ada")
    expect(email.html).toContain("<ul><li>Hello n0</li><li>Hello n1</li><li>Hello n2</li></ul>")
  })
})
