/**
 * The program that renders one e-mail, bundled as the service bundles it
 * (apps/backend/src/lib/email-rendering.tsx and packages/stack-shared/src/utils/esbuild.tsx at
 * stack-auth 2f719903): the same virtual files (`/template.tsx`, `/theme.tsx`, `/utils.tsx` with
 * `findComponentValue`, `/render.tsx`, `/entry.js`), the same `@stackframe/emails` package (`Subject`,
 * `NotificationCategory`, `ProjectLogo`…), the same esbuild options (bundle, `platform: "browser"`,
 * `target: "es2015"`, `jsx: "automatic"`, the `virtual` namespace, so build errors read
 * `Build failed with 1 error:\nvirtual:/template.tsx:1:20: ERROR: …`), the packages React,
 * `@react-email/components` and arktype left as imports. One difference: the output is CommonJS
 * (the service's is an ES module it runs in a sandbox), so that the worker can run it as a function
 * given those packages (`RenderWorker.ts`).
 *
 * @module
 */

/** The packages the bundle imports, given by the worker at run time (the service's `keepAsImports`, and `arktype/config`). */
export const runtimeImports: ReadonlyArray<string> = ["arktype", "arktype/config", "react", "react/jsx-runtime", "@react-email/components"]

/** What a template is rendered with (the options of the service's `renderEmailWithTemplate`). */
export interface BundleInput {
  readonly user: { readonly displayName: string | null }
  readonly project: { readonly displayName: string }
  readonly variables: Readonly<Record<string, unknown>>
  readonly themeProps: unknown
  readonly previewMode: boolean
}

/** The service's `findComponentValue` (the value of the one `<Subject>` / `<NotificationCategory>`). */
const findComponentValueUtil = `import React from 'react';
export function findComponentValue(element, targetStackComponent) {
  const matches = [];

  function traverse(node) {
    if (!React.isValidElement(node)) return;

    const type = node.type;
    const isTarget =
      type &&
      typeof type === "function" &&
      "__stackComponent" in type &&
      type.__stackComponent === targetStackComponent;

    if (isTarget) {
      matches.push(node);
    }

    const children = node.props?.children;
    if (Array.isArray(children)) {
      children.forEach(traverse);
    } else if (children) {
      traverse(children);
    }
  }
  traverse(element.type(element.props || {}));
  if (matches.length === 0) {
    return undefined;
  }

  if (matches.length !== 1) {
    throw new Error(
      \`Expected exactly one occurrence of component "\${targetStackComponent}", found \${matches.length}.\`
    );
  }

  const matched = matches[0];
  const value = matched.props?.value;

  if (typeof value !== "string") {
    throw new Error(
      \`The "value" prop of "\${targetStackComponent}" must be a string.\`
    );
  }

  return value;
}`

/** The service's `@stackframe/emails` package. */
const stackframeEmailsPackage = `import React from 'react';
import { Img } from '@react-email/components';
export const Subject = (props) => null;
Subject.__stackComponent = "Subject";
export const NotificationCategory = (props) => null;
NotificationCategory.__stackComponent = "NotificationCategory";

export function Logo(props) {
  return React.createElement(
    "div",
    { className: "flex gap-2 items-center" },
    React.createElement(Img, {
      src: props.logoUrl,
      alt: "Logo",
      className: "h-8",
    }),
  );
}

export function FullLogo(props) {
  return React.createElement(Img, {
    src: props.logoFullUrl,
    alt: "Full Logo",
    className: "h-16",
  });
}

export function ProjectLogo(props) {
  const { mode = "light" } = props;
  const {
    logoUrl,
    logoFullUrl,
    logoDarkModeUrl,
    logoFullDarkModeUrl,
  } = props.data ?? {};

  if (mode === "dark" && logoFullDarkModeUrl) {
    return React.createElement(FullLogo, { logoFullUrl: logoFullDarkModeUrl });
  }
  if (mode === "dark" && logoDarkModeUrl) {
    return React.createElement(Logo, {
      logoUrl: logoDarkModeUrl,
    });
  }
  if (mode === "light" && logoFullUrl) {
    return React.createElement(FullLogo, { logoFullUrl });
  }
  if (mode === "light" && logoUrl) {
    return React.createElement(Logo, {
      logoUrl,
    });
  }

  return null;
}
`

/** The service's entry: runs `renderAll`, and reports a thrown error by its message. */
const entryJs = `export default async () => {
  try {
    const { renderAll } = await import("./render.tsx");
    const result = await renderAll();
    return { status: "ok", data: result };
  } catch (e) {
    if (e instanceof Error) {
      return { status: "error", error: { message: e.message } };
    }
    return { status: "error", error: { message: String(e) } };
  }
};
`

/** The service's `/render.tsx` of `renderEmailWithTemplate`, for these inputs. */
const renderTsx = (input: BundleInput): string =>
  `import { configure } from "arktype/config"
configure({ onUndeclaredKey: "delete" })
import React from 'react';
import { render } from '@react-email/components';
import { type } from "arktype";
import { findComponentValue } from "./utils.tsx";
import * as TemplateModule from "./template.tsx";
const { variablesSchema, EmailTemplate } = TemplateModule;
import { EmailTheme } from "./theme.tsx";
export const renderAll = async () => {
  const variables = variablesSchema ? variablesSchema({
    ${input.previewMode ? "...(EmailTemplate.PreviewVariables || {})," : ""}
    ...(${JSON.stringify(input.variables)}),
  }) : {};
  if (variables instanceof type.errors) {
    throw new Error(variables.summary)
  }
  const themeProps = {
    ...${JSON.stringify(input.themeProps ?? {})},
    ...${input.previewMode ? "EmailTheme.PreviewProps" : "{}"},
  }
  const EmailTemplateWithProps  = <EmailTemplate variables={variables} user={${JSON.stringify(input.user)}} project={${JSON.stringify(input.project)}} />;
  const Email = <EmailTheme {...themeProps}>
    {${input.previewMode ? "EmailTheme.PreviewProps?.children ?? " : ""} EmailTemplateWithProps}
  </EmailTheme>;
  return {
    html: await render(Email),
    text: await render(Email, { plainText: true }),
    subject: findComponentValue(EmailTemplateWithProps, "Subject"),
    notificationCategory: findComponentValue(EmailTemplateWithProps, "NotificationCategory"),
  };
}
`

/** The virtual files of one rendering, as the service writes them. */
export const renderFiles = (templateSource: string, themeSource: string, input: BundleInput): ReadonlyMap<string, string> =>
  new Map([
    ["/utils.tsx", findComponentValueUtil],
    ["/theme.tsx", themeSource],
    ["/template.tsx", templateSource],
    ["/render.tsx", renderTsx(input)],
    ["/entry.js", entryJs]
  ])

/** `path.posix.join("/", path)` (the service's resolution of a virtual file). */
export const virtualPath = (path: string): string => {
  const segments: Array<string> = []
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue
    if (segment === "..") segments.pop()
    else segments.push(segment)
  }
  return `/${segments.join("/")}`
}

const loaders: ReadonlyMap<string, "tsx" | "ts" | "js" | "jsx" | "json" | "css"> = new Map([
  ["tsx", "tsx"],
  ["ts", "ts"],
  ["js", "js"],
  ["jsx", "jsx"],
  ["json", "json"],
  ["css", "css"]
])

/** The part of esbuild's API the bundler uses (the optional peer `esbuild`, imported on first use). */
export interface Esbuild {
  readonly build: typeof import("esbuild").build
}

/**
 * Bundles the files as the service's `bundleJavaScript` does: the CommonJS program, or the build
 * error's message (`Build failed with N error(s):\n…`, the `error` of EMAIL_RENDERING_ERROR).
 */
export const bundle = async (esbuild: Esbuild, files: ReadonlyMap<string, string>): Promise<{ readonly code: string } | { readonly error: string }> => {
  try {
    const result = await esbuild.build({
      entryPoints: ["/entry.js"],
      bundle: true,
      write: false,
      format: "cjs",
      platform: "browser",
      target: "es2015",
      jsx: "automatic",
      sourcemap: false,
      logLevel: "silent",
      external: [...runtimeImports],
      plugins: [
        {
          name: "replace-packages-with-globals",
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => args.path === "@stackframe/emails" ? { path: args.path, namespace: "package-shim" } : undefined)
            build.onLoad({ filter: /.*/, namespace: "package-shim" }, () => ({ contents: stackframeEmailsPackage, loader: "ts" }))
          }
        },
        {
          name: "virtual-fs",
          setup(build) {
            build.onResolve({ filter: /.*/ }, (args) => {
              const absolutePath = virtualPath(args.path)
              return files.has(absolutePath) ? { path: absolutePath, namespace: "virtual" } : undefined
            })
            build.onLoad({ filter: /.*/, namespace: "virtual" }, (args) => {
              const contents = files.get(args.path) ?? ""
              const loader = loaders.get(args.path.split(".").pop() ?? "")
              return loader === undefined ? { errors: [{ text: `esbuild requested file ${args.path} with unknown extension` }] } : { contents, loader }
            })
          }
        }
      ]
    })
    if (result.errors.length > 0) return { error: result.errors.map((error) => error.text).join("\n") }
    const output = result.outputFiles[0]
    return output === undefined ? { error: "esbuild wrote no output" } : { code: output.text }
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("Build failed with ")) return { error: error.message }
    throw error
  }
}
