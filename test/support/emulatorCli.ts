/**
 * The emulator's command line (src/emulator/cli.ts) for the tests that run it as a process:
 * bundled by esbuild into one ES module, packages external (as the built package's
 * `stack-auth-emulator` is), once per test process, instead of `node --import tsx` loading its
 * ~200 source modules through tsx's loader at every start (1.9 s of CPU -> 0.6 s a start). Run it
 * as `spawn(process.execPath, [emulatorCli(), ...flags])`; the server is that very process.
 */
import { buildSync } from "esbuild"
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))

let built: string | undefined

/**
 * The bundled CLI's path, built on first use: named by its content's hash inside the repository
 * (so that its packages resolve from node_modules), written once for processes that build the same.
 */
export const emulatorCli = (): string => {
  if (built !== undefined) return built
  const dir = `${root}node_modules/.cache/stack-auth-effect-test/`
  const [bundle] = buildSync({
    entryPoints: [`${root}src/emulator/cli.ts`],
    bundle: true,
    packages: "external",
    format: "esm",
    platform: "node",
    target: "node20",
    outfile: `${dir}emulator-cli.mjs`,
    write: false,
    logLevel: "silent"
  }).outputFiles
  const file = `${dir}emulator-cli-${createHash("sha256").update(bundle!.contents).digest("hex").slice(0, 16)}.mjs`
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    const partial = `${file}.${process.pid}.tmp`
    writeFileSync(partial, bundle!.contents)
    renameSync(partial, file)
  }
  return (built = file)
}
