/**
 * This package's version, from package.json (written by `npm run version:sync`, scripts/version.ts;
 * do not edit: the build and a test check it against package.json).
 *
 * @module
 */

/** package.json's `version`. */
export const packageVersion = "0.2.0"
