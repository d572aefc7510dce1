/**
 * Input checks the emulator's routes share, as the service makes them: e-mail syntax and the
 * schema problems of an e-mail field, password length, absolute URLs and the schema problems of
 * a URL field, base64 images.
 *
 * @module
 */
import { Effect } from "effect"
import { PasswordTooLong, PasswordTooShort } from "../core/KnownErrors.js"

/** Minimum and maximum password lengths of the service. */
export const passwordLimits = { min: 8, max: 70 } as const

/**
 * The e-mail syntax the service accepts (the HTML living standard's, as its schema library checks
 * it): a top-level domain is not required, so `invalid_email@gmai` passes.
 */
const emailPattern = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/

/** Whether a text looks like an e-mail address. */
export const isEmail = (text: string): boolean => emailPattern.test(text)

/** The schema problems of an e-mail field: `must not be empty` for "", `must be a valid email` for other non-e-mails. */
export const emailProblems = (path: string, text: string): ReadonlyArray<string> =>
  text === "" ? [`${path} must not be empty`] : isEmail(text) ? [] : [`${path} must be a valid email`]

/** PASSWORD_TOO_SHORT / PASSWORD_TOO_LONG for a password outside the limits. */
export const checkPassword = (password: string): Effect.Effect<void, PasswordTooShort | PasswordTooLong> =>
  password.length < passwordLimits.min
    ? Effect.fail(PasswordTooShort.make({ min_length: passwordLimits.min }))
    : password.length > passwordLimits.max
    ? Effect.fail(PasswordTooLong.make({ maxLength: passwordLimits.max }))
    : Effect.void

/**
 * The schema problems of a URL field, as the service's `urlSchema` words them
 * (`packages/stack-shared/src/schema-fields.ts` at 2f719903): `contains spaces` for a text with a
 * space, then `is not a valid URL` for a text that does not parse as an absolute URL.
 */
export const urlProblems = (path: string, text: string): ReadonlyArray<string> => [
  ...(text.includes(" ") ? [`${path} contains spaces`] : []),
  ...(isUrl(text) ? [] : [`${path} is not a valid URL`])
]

/** Whether a text parses as an absolute URL. */
export const isUrl = (text: string): boolean => {
  try {
    new URL(text)
    return true
  } catch {
    return false
  }
}

const imageDataUrl = /^data:image\/(png|jpg|jpeg|gif|bmp|webp);base64,([A-Za-z0-9+/]+={0,2})$/
const bareBase64 = /^[A-Za-z0-9+/]+={0,2}$/

/** Whether a profile image URL is acceptable from client access: a base64 image (data URL or bare base64). */
export const isBase64Image = (value: string): boolean => imageDataUrl.test(value) || bareBase64.test(value)
