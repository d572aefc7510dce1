/**
 * What text a request header can carry. `fetch` refuses to build a request whose header value
 * holds CR, LF or NUL, or a character above U+00FF (header values are bytes): such a value is not
 * a token, a key or an id the SDK can send.
 */
const headerSafe = /^[\t\x20-\x7e\x80-\xff]*$/

/** Whether `text` can be sent as a header value: tab, printable ASCII and U+0080–U+00FF only. */
export const isHeaderSafe = (text: string): boolean => headerSafe.test(text)

/**
 * Whether `text` can be a token read from outside input (a cookie, the `x-stack-auth` header): not
 * empty and sendable as a header value (no CR, LF, NUL or other control character except tab,
 * nothing above U+00FF).
 */
export const isSendableToken = (text: string): boolean => text.length > 0 && isHeaderSafe(text)
