/**
 * Where the end user of a request is, as the service guesses it from the request's headers
 * (backend `apps/backend/src/lib/end-users.tsx` `getEndUserInfo`, stack-auth/stack-auth
 * fbebce2c): only a request whose `User-Agent` names a browser (`Mozilla`, `Chrome` or `Safari`)
 * has an end user; its IP is the first of `cf-connecting-ip`, `x-vercel-forwarded-for`,
 * `x-real-ip` and the first entry of `x-forwarded-for`, and must be an IP address; the location
 * comes from the proxies' headers (`cf-ipcountry` / `x-vercel-ip-country`,
 * `x-vercel-ip-country-region`, `x-vercel-ip-city`, `x-vercel-ip-latitude`,
 * `x-vercel-ip-longitude`, `x-vercel-ip-timezone`), each left out when absent or empty (an
 * unparsable coordinate too: the service would store `NaN`, which JSON cannot carry).
 *
 * The socket's address is never used: a request to 127.0.0.1 without those headers (a local
 * server, a non-browser client) has no end-user information, and its session lists none.
 *
 * @module
 */

/** The end user's IP and location (the wire's `last_used_at_end_user_ip_info`, camelCase keys). */
export interface EndUserIpInfo {
  readonly ip: string
  readonly countryCode?: string
  readonly regionCode?: string
  readonly cityName?: string
  readonly latitude?: number
  readonly longitude?: number
  readonly tzIdentifier?: string
}

const browserMarks = ["Mozilla", "Chrome", "Safari"]

const ipv4 = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/** Whether `text` is an IPv4 or IPv6 address (IPv6 checked by the URL parser's host rules). */
export const isIpAddress = (text: string): boolean => {
  if (ipv4.test(text)) return true
  if (!text.includes(":") || /[[\]/?#@\s%]/.test(text)) return false
  try {
    return new URL(`http://[${text}]/`).hostname.startsWith("[")
  } catch {
    return false
  }
}

const nonEmpty = (value: string | null): string | undefined => (value === null || value === "" ? undefined : value)

const coordinate = (value: string | null): number | undefined => {
  const text = nonEmpty(value)
  if (text === undefined) return undefined
  const parsed = Number.parseFloat(text)
  return Number.isFinite(parsed) ? parsed : undefined
}

/** The end user's IP and location for a request, or `undefined` when the service would know none. */
export const endUserIpInfo = (headers: Headers): EndUserIpInfo | undefined => {
  const userAgent = headers.get("user-agent") ?? ""
  if (!browserMarks.some((mark) => userAgent.includes(mark))) return undefined
  const ip = headers.get("cf-connecting-ip") ??
    headers.get("x-vercel-forwarded-for") ??
    headers.get("x-real-ip") ??
    headers.get("x-forwarded-for")?.split(",")[0]
  if (ip === undefined || !isIpAddress(ip)) return undefined
  const location = {
    countryCode: nonEmpty(headers.get("cf-ipcountry") ?? headers.get("x-vercel-ip-country")),
    regionCode: nonEmpty(headers.get("x-vercel-ip-country-region")),
    cityName: nonEmpty(headers.get("x-vercel-ip-city")),
    latitude: coordinate(headers.get("x-vercel-ip-latitude")),
    longitude: coordinate(headers.get("x-vercel-ip-longitude")),
    tzIdentifier: nonEmpty(headers.get("x-vercel-ip-timezone"))
  }
  return {
    ip,
    ...Object.fromEntries(Object.entries(location).filter(([, value]) => value !== undefined))
  }
}
