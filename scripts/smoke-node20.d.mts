/** Types of the parts of `smoke-node20.mjs` the tests read (the script itself is plain JavaScript for the system Node). */
export interface CodeBlock {
  readonly lang: "ts" | "tsx" | "js" | "mjs"
  readonly source: string
}

/** The README's Quick start program: the first code block of `## Quick start` importing `stack-auth-effect`. */
export declare const quickStartBlock: (readme: string) => CodeBlock

/** A code block as a plain ES module for Node 20 (TypeScript syntax stripped by esbuild). */
export declare const toJavaScript: (block: CodeBlock) => Promise<string>
