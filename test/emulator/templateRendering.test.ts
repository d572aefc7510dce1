/**
 * Issue 16 item 7: the emulator renders e-mail templates as the service does (React e-mail
 * components inside the project's theme) instead of dumping their source — every default template
 * renders with its texts and variables substituted and HTML-escaped; a source the renderer cannot
 * handle is a typed failure with the service's wording (esbuild's build error, the thrown error as
 * JSON); hostile sources end in a failure within counted bounds.
 */
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { defaultTemplates } from "../../src/emulator/EmailTemplates.js"
import { stripTags } from "../../src/emulator/rendering/ReactEmail.js"
import { doctype, renderEmailWithTemplate } from "../../src/emulator/rendering/RenderEmail.js"
import type { RenderedEmail, RenderOptions } from "../../src/emulator/rendering/RenderEmail.js"
import { defaultThemes, emptyTheme, newTemplateSource } from "../../src/emulator/rendering/Themes.js"
import { maxNesting, maxSourceLength } from "../../src/emulator/rendering/TsxParser.js"

const light = defaultThemes.get("1df07ae6-abf3-4a40-83a5-a1a2cbe336ac")!.tsxSource
const sourceOf = (name: string) => defaultTemplates.find((template) => template.displayName === name)!.tsxSource

const rendered = (template: string, options: RenderOptions = {}, theme = emptyTheme): RenderedEmail => {
  const result = renderEmailWithTemplate(template, theme, options)
  if (Result.isFailure(result)) throw new Error(`expected a rendering, got: ${result.failure}`)
  return result.success
}

const failure = (template: string, options: RenderOptions = {}, theme = emptyTheme): string => {
  const result = renderEmailWithTemplate(template, theme, options)
  if (Result.isSuccess(result)) throw new Error("expected a failure, got a rendering")
  return result.failure
}

/** The text of the HTML with tags removed (entities kept), whitespace collapsed. */
const visible = (html: string) => html.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ")

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

  it("the seven defaults are covered", () => {
    expect(cases.map((c) => c.name)).toEqual(defaultTemplates.map((template) => template.displayName))
  })

  for (const c of cases) {
    it(`${c.name}: subject, category, texts, links`, () => {
      const email = rendered(sourceOf(c.name), { user, project, variables: c.variables })
      expect(email.subject).toBe(c.subject)
      expect(email.notificationCategory).toBe("Transactional")
      expect(email.html.startsWith(`${doctype}<html lang="en" dir="ltr">`)).toBe(true)
      expect(email.html).not.toContain("<pre>")
      expect(email.html).not.toContain("className")
      for (const text of c.texts) expect(visible(email.html)).toContain(text)
      for (const link of c.links) expect(email.html).toContain(`href="${link}"`)
    })

    it(`${c.name}: user, project and variables are HTML-escaped`, () => {
      const variables = Object.fromEntries(Object.entries(c.variables).map(([key, value]) => [key, typeof value === "string" ? hostile : value]))
      const email = rendered(sourceOf(c.name), { user: { displayName: hostile }, project: { displayName: hostile }, variables })
      expect(email.html).not.toContain("<script>")
      expect(email.html).toContain(escapedHostile)
    })
  }

  it("preview mode: John Doe, My Project, the template's PreviewVariables, the theme's unsubscribe link", () => {
    const email = rendered(sourceOf("Magic Link/OTP"), { previewMode: true }, light)
    expect(email.subject).toBe("Sign in to My Project: Your code is 3SLSWZ")
    expect(visible(email.html)).toContain("Hi, John Doe! This is your one-time-password for signing in:")
    expect(email.html).toContain("<a href=\"https://example.com\"")
    expect(visible(email.html)).toContain("Click here to unsubscribe from these emails")
  })

  it("no display name: the conditional leaves out the name", () => {
    const email = rendered(sourceOf("Email Verification"), {
      user: { displayName: null },
      project: { displayName: "Acme" },
      variables: { emailVerificationLink: "#" }
    })
    expect(visible(email.html)).toContain("Hi! Please click on the following button")
  })

  it("optional variables absent: the receipt has no button", () => {
    const email = rendered(sourceOf("Payment Receipt"), {
      user: { displayName: "Ada" },
      project: { displayName: "Acme" },
      variables: { productName: "Pro", quantity: 1, amount: "$1" }
    })
    expect(email.html).not.toContain("View receipt")
  })

  it("the plain text holds the texts and the link", () => {
    const email = rendered(sourceOf("Email Verification"), {
      user: { displayName: "Ada" },
      project: { displayName: "Acme" },
      variables: { emailVerificationLink: "https://app.test/v?code=1&x=2" }
    })
    expect(email.text).toContain("Hi, Ada! Please click on the following button to verify your email.")
    expect(email.text).toContain("https://app.test/v?code=1&x=2")
    expect(email.text).not.toContain("<")
  })

  it("under <Tailwind> the utility classes the subset knows become inline CSS before the element's style; the others stay classes", () => {
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
    const html = rendered(source).html
    expect(html).toContain("<p class=\"sm:hidden\" style=\"text-align:center;font-weight:700;color:red\">x</p>")
    expect(html).toContain(
      "<div style=\"padding-top:0.75rem;padding-bottom:0.75rem;padding-left:1.25rem;padding-right:1.25rem;background-color:#f0f0f0;opacity:0.6\">y</div>"
    )
    expect(html).toContain(
      "<a href=\"https://a.test\" style=\"padding-top:0.75rem;padding-bottom:0.75rem;padding-left:1.25rem;padding-right:1.25rem;line-height:100%;text-decoration:none;display:inline-block;max-width:100%\" target=\"_blank\">"
    )
    const noTailwind = "export function EmailTheme({ children }) { return <html><body>{children}</body></html> }"
    expect(rendered(source.replace("<Tailwind>", "<>").replace("</Tailwind>", "</>"), {}, noTailwind).html).toContain(
      "<p class=\"text-center font-bold sm:hidden\" style=\"color:red\">x</p>"
    )
  })

  it("every default theme wraps a template (with the project's logo when it has one); a new template renders in each", () => {
    for (const theme of defaultThemes.values()) {
      const email = rendered(newTemplateSource, {
        previewMode: true,
        themeProps: { projectLogos: { logoUrl: "https://cdn.test/l.png", logoDarkModeUrl: "https://cdn.test/l.png" } }
      }, theme.tsxSource)
      expect(email.subject).toBe("Hello John Doe!")
      expect(visible(email.html)).toContain("Hi John Doe!")
      expect(visible(email.html)).toContain("count is 10")
      expect(email.html).toContain("src=\"https://cdn.test/l.png\"")
      expect(email.html).toContain("<table align=\"center\" width=\"100%\" border=\"0\" cellpadding=\"0\" cellspacing=\"0\" role=\"presentation\"")
    }
  })
})

describe("sources that do not render are refused with the service's wording", () => {
  const withMarkers = (body: string) =>
    `import { Subject, NotificationCategory } from "@stackframe/emails"\nexport function EmailTemplate({ user }) {\n  return <><Subject value="S" /><NotificationCategory value="Transactional" />${body}</>\n}`

  it("a syntax error is esbuild's build error with its position", () => {
    expect(failure("export function EmailTemplate() {\n  return <div>\n}")).toMatch(/^Build failed with 1 error:\n\/template\.tsx:\d+:\d+: ERROR: /)
    expect(failure("export const x = 1 +;")).toBe("Build failed with 1 error:\n/template.tsx:1:20: ERROR: Unexpected \";\"")
  })

  it("an import that cannot be resolved is esbuild's \"Could not resolve\"", () => {
    expect(failure("import { x } from \"left-pad\"\nexport function EmailTemplate() { return x }")).toBe(
      "Build failed with 1 error:\n/template.tsx:1:0: ERROR: Could not resolve \"left-pad\""
    )
  })

  it("a name a module does not export, once used: esbuild's error (@stackframe/emails) or the ES module link error", () => {
    expect(failure("import { Sender } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <Sender /> }")).toBe(
      "Build failed with 1 error:\n/template.tsx:1:0: ERROR: No matching export in \"@stackframe/emails\" for import \"Sender\""
    )
    expect(failure("import { Banner } from \"@react-email/components\"\nexport function EmailTemplate() { return <Banner /> }")).toBe(
      JSON.stringify({ message: "The requested module '@react-email/components' does not provide an export named 'Banner'" })
    )
    const unused =
      "import { Banner } from \"@react-email/components\"\nimport { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"S\" /><NotificationCategory value=\"T\" /></> }"
    expect(rendered(unused).subject).toBe("S")
  })

  it("NotificationCategory used without its import: the ReferenceError, as JSON", () => {
    const source =
      "import { Subject } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value=\"S\" /><NotificationCategory value=\"Transactional\" /></> }"
    expect(failure(source)).toBe(JSON.stringify({ message: "NotificationCategory is not defined" }))
  })

  it("no EmailTemplate export: React's invalid element type", () => {
    expect(failure("export const variablesSchema = (v) => v")).toContain(
      "Element type is invalid: expected a string (for built-in components) or a class/function (for composite components) but got: undefined."
    )
  })

  it("variables the schema refuses: arktype's summary", () => {
    expect(failure(sourceOf("Email Verification"), { user: { displayName: null }, project: { displayName: "A" } })).toBe(
      JSON.stringify({ message: "emailVerificationLink must be a string (was missing)" })
    )
  })

  it("two Subjects, or a Subject whose value is not a string", () => {
    expect(failure(withMarkers("<Subject value=\"again\" />"))).toBe(
      JSON.stringify({ message: "Expected exactly one occurrence of component \"Subject\", found 2." })
    )
    const numeric =
      "import { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value={1} /><NotificationCategory value=\"Transactional\" /></> }"
    expect(failure(numeric)).toBe(JSON.stringify({ message: "The \"value\" prop of \"Subject\" must be a string." }))
  })

  it("reading a property of undefined: JavaScript's TypeError text", () => {
    expect(failure(withMarkers("{user.address.street}"), { user: { displayName: "A" }, project: { displayName: "P" } })).toBe(
      JSON.stringify({ message: "Cannot read properties of undefined (reading 'street')" })
    )
  })

  it("a template without Subject still renders (the route refuses it, not the renderer)", () => {
    const email = rendered(
      "import { NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <NotificationCategory value=\"Transactional\" /> }"
    )
    expect(email.subject).toBeUndefined()
    expect(email.notificationCategory).toBe("Transactional")
  })
})

describe("hostile sources end in a failure within bounds", () => {
  it("a source longer than the bound is refused before it is read", () => {
    const huge = "x".repeat(10 * 1024 * 1024)
    expect(failure(huge)).toBe(`The source is ${huge.length} characters long; the emulator renders sources of at most ${maxSourceLength} characters`)
  })

  it("100 000 nested elements are refused by length; 5 000 (within the length) at the nesting bound", () => {
    const deep = `export function EmailTemplate() { return ${"<div>".repeat(100_000)}${"</div>".repeat(100_000)} }`
    expect(failure(deep)).toBe(`The source is ${deep.length} characters long; the emulator renders sources of at most ${maxSourceLength} characters`)
    const nested = `export function EmailTemplate() { return ${"<b>".repeat(5_000)}x${"</b>".repeat(5_000)} }`
    expect(nested.length).toBeLessThan(maxSourceLength)
    expect(failure(nested)).toBe(`The source is nested more than ${maxNesting} levels deep`)
    const parens = `export const x = ${"(".repeat(5_000)}1${")".repeat(5_000)}`
    expect(failure(parens)).toBe(`The source is nested more than ${maxNesting} levels deep`)
  })

  it("a string doubled 40 times stops at the length bound", () => {
    const lines = ["const s0 = \"xxxxxxxxxx\""]
    for (let i = 1; i <= 40; i++) lines.push(`const s${i} = s${i - 1} + s${i - 1}`)
    const source = `export function EmailTemplate() {\n${lines.join("\n")}\nreturn <p>{s40}</p> }`
    expect(failure(source, { limits: { maxSteps: 500_000, maxDepth: 1_000, maxLength: 100_000 } })).toBe("Rendering built a text longer than 100000 characters")
  })

  it("an array of 600 strings of 2^20 characters stops at the length bound before it is joined", () => {
    const lines = ["const s0 = \"x\""]
    for (let i = 1; i <= 20; i++) lines.push(`const s${i} = s${i - 1} + s${i - 1}`)
    const source = `export function EmailTemplate() {\n${lines.join("\n")}\nconst all = [${
      Array.from({ length: 600 }, () => "s20").join(", ")
    }]\nreturn <p title={"" + all}>x</p> }`
    expect(failure(source)).toBe("Rendering built a text longer than 2000000 characters")
  })

  it(
    "raw HTML of 2^18 `<` with no `>` becomes plain text in one pass (the tag regex scanned to the end from every `<`: minutes)",
    () => {
      const lines = ["const s0 = \"<\""]
      for (let i = 1; i <= 18; i++) lines.push(`const s${i} = s${i - 1} + s${i - 1}`)
      const source = `export function EmailTemplate() {\n${lines.join("\n")}\nreturn <div dangerouslySetInnerHTML={{ __html: "a<b>c" + s18 }} /> }`
      expect(source.length).toBeLessThan(700)
      const email = rendered(source)
      expect(email.text).toBe(`a c${"<".repeat(2 ** 18)}`)
    },
    60_000
  )

  it("tags in raw HTML are stripped as `replace(/<[^>]*>/g, \" \")` strips them", () => {
    for (const html of ["", "a", "<", ">", "<>", "a<b>c", "<<a>>", "x<y", "a>b<c>d", "<a<b>c>", "<p>one</p><p>two", "<<<", "a<b c=\"d>e\">f"]) {
      expect(stripTags(html), html).toBe(html.replace(/<[^>]*>/g, " "))
    }
  })

  it("an element tree shared 2^30 times stops at the step bound", () => {
    const lines = ["const e0 = <i>x</i>"]
    for (let i = 1; i <= 30; i++) lines.push(`const e${i} = <>{e${i - 1}}{e${i - 1}}</>`)
    const source = `export function EmailTemplate() {\n${lines.join("\n")}\nreturn e30 }`
    expect(failure(source, { limits: { maxSteps: 20_000, maxDepth: 1_000, maxLength: 2_000_000 } })).toBe("Rendering took more than 20000 steps")
  })

  it("copying a big object again and again is counted per field: it stops at the step bound", () => {
    const fields = Array.from({ length: 5_000 }, (_, i) => `k${i}: 1`).join(", ")
    const copies = Array.from({ length: 2_000 }, (_, i) => `const c${i} = { ...a }`).join("\n")
    const source = `const a = { ${fields} }\n${copies}\nexport function EmailTemplate() { return null }`
    expect(failure(source)).toBe("Rendering took more than 500000 steps")
  })

  it("a component that renders itself stops at the depth bound", () => {
    const source = "function Loop() { return <Loop /> }\nexport function EmailTemplate() { return <Loop /> }"
    expect(failure(source, { limits: { maxSteps: 500_000, maxDepth: 300, maxLength: 2_000_000 } })).toBe("Rendering nested more than 300 levels deep")
  })

  it("spread props cannot inject attributes; prototypes are out of reach", () => {
    const source = `import { Subject, NotificationCategory } from "@stackframe/emails"
export function EmailTemplate({ variables }) {
  const evil = { "x onload=alert(1)": "y", "data-ok": "1" }
  return <><Subject value={typeof variables.constructor + typeof variables.__proto__} /><NotificationCategory value="T" /><p {...evil}>hi</p></>
}`
    const email = rendered(source)
    expect(email.html).toContain("<p data-ok=\"1\">hi</p>")
    expect(email.html).not.toContain("onload")
    expect(email.subject).toBe("undefinedundefined")
    expect(failure(source.replace("typeof variables.constructor", "variables.constructor()"))).toBe(
      JSON.stringify({ message: "variables.constructor is not a function" })
    )
  })

  it("a template cannot change what the renderer provides to other renderings (its modules are frozen)", () => {
    const button = "import { Button } from \"@react-email/components\"\nButton.leak = \"x\"\nexport function EmailTemplate() { return null }"
    expect(failure(button)).toBe(JSON.stringify({ message: "Cannot add property leak, object is not extensible" }))
    const react = "import React from \"react\"\nReact.leak = \"x\"\nexport function EmailTemplate() { return null }"
    expect(failure(react)).toBe(JSON.stringify({ message: "Cannot add property leak, object is not extensible" }))
    const reader =
      "import React from \"react\"\nimport { Button } from \"@react-email/components\"\nimport { Subject, NotificationCategory } from \"@stackframe/emails\"\nexport function EmailTemplate() { return <><Subject value={typeof Button.leak + typeof React.leak} /><NotificationCategory value=\"T\" /></> }"
    expect(rendered(reader).subject).toBe("undefinedundefined")
  })

  it("code that is not in the subset (loops, new, classes) is a build error, never run", () => {
    for (const statement of ["while (true) {}", "new Function(\"return 1\")()", "class A {}", "for (;;) {}"]) {
      expect(failure(`export function EmailTemplate() { ${statement}; return null }`)).toMatch(
        /^Build failed with 1 error:\n\/template\.tsx:1:\d+: ERROR: Unsupported syntax/
      )
    }
  })
})
