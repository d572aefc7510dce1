/**
 * Session geo information (SPEC.md: "Session: … geo information of last use"): the SDK decodes the
 * service's `last_used_at_end_user_ip_info` (`{ ip, countryCode, regionCode, cityName, latitude,
 * longitude, tzIdentifier }`, camelCase on the wire), and the emulator fills it the way the
 * backend does (`EndUserIpInfo`: a browser's request through a proxy naming its IP; nothing for a
 * direct local request), keeping the last known place when a later mint has none.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Sessions from "../../src/auth/Sessions.js"
import { ActiveSessionList } from "../../src/auth/internal/sessions.js"
import { endUserIpInfo, isIpAddress } from "../../src/emulator/EndUserIpInfo.js"
import type * as Emulator from "../../src/emulator/index.js"
import * as TokenStore from "../../src/session/TokenStore.js"
import { clientHeaders, send } from "../emulator/helpers.js"
import { clientDevice, makeEmulator, password } from "./flowsSupport.js"

const browser = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36"

const proxied = {
  "user-agent": browser,
  "x-forwarded-for": "203.0.113.7, 10.0.0.1",
  "x-vercel-ip-country": "CH",
  "x-vercel-ip-country-region": "ZH",
  "x-vercel-ip-city": "Zürich",
  "x-vercel-ip-latitude": "47.3769",
  "x-vercel-ip-longitude": "8.5417",
  "x-vercel-ip-timezone": "Europe/Zurich"
}

/** Signs a user up with raw headers (as a browser behind a proxy would send them); answers its tokens. */
const signUpWith = (emulator: Emulator.Emulator, headers: Readonly<Record<string, string>>, email = "ada@example.com") =>
  Effect.gen(function* () {
    const answer = yield* send(emulator, {
      method: "POST",
      path: "/api/v1/auth/password/sign-up",
      headers: clientHeaders(emulator.demo, headers),
      body: { email, password }
    })
    expect(answer.status).toBe(200)
    const json = answer.json as { access_token: string; refresh_token: string }
    return TokenStore.fromStrings(json.access_token, json.refresh_token)
  })

describe("session geo information", () => {
  it.effect("a service-shaped session list decodes its last-use geo information (full, ip only, nulls, absent)", () =>
    Effect.gen(function* () {
      const raw: unknown = JSON.parse(readFileSync(new URL("../fixtures/sessions/list-with-geo.json", import.meta.url), "utf8"))
      const list = yield* Schema.decodeUnknownEffect(ActiveSessionList)(raw)
      expect(list.items.map((session) => session.geoInfo)).toEqual([
        { ip: "203.0.113.7", countryCode: "CH", regionCode: "ZH", cityName: "Zürich", latitude: 47.3769, longitude: 8.5417, tzIdentifier: "Europe/Zurich" },
        { ip: "2001:db8::1" },
        { ip: "198.51.100.23", countryCode: "US", regionCode: null, cityName: null, latitude: null, longitude: null, tzIdentifier: null },
        undefined
      ])
    }))

  it.effect("a browser's request through a proxy: the session lists its IP (first x-forwarded-for entry) and the proxy's location", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUpWith(emulator, proxied)
      const device = yield* clientDevice(emulator, tokens)
      const [session] = yield* Sessions.list().pipe(Effect.provide(device.context))
      expect(session?.geoInfo).toEqual({
        ip: "203.0.113.7",
        countryCode: "CH",
        regionCode: "ZH",
        cityName: "Zürich",
        latitude: 47.3769,
        longitude: 8.5417,
        tzIdentifier: "Europe/Zurich"
      })
    }))

  it.effect("a direct local request (127.0.0.1, no proxy headers) and a non-browser client list no geo information", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const direct = yield* signUpWith(emulator, { "user-agent": browser }, "direct@example.com")
      const server = yield* signUpWith(emulator, { "user-agent": "node", "x-forwarded-for": "203.0.113.7" }, "node@example.com")
      for (const tokens of [direct, server]) {
        const device = yield* clientDevice(emulator, tokens)
        const [session] = yield* Sessions.list().pipe(Effect.provide(device.context))
        expect(session).toBeDefined()
        expect(session?.geoInfo).toBeUndefined()
      }
    }))

  it.effect("a later mint without an end user keeps the last known place; one with an end user replaces it", () =>
    Effect.gen(function* () {
      const emulator = yield* makeEmulator()
      const tokens = yield* signUpWith(emulator, proxied)
      const project = emulator.state.projects.get(emulator.demo.projectId)!
      const [record] = [...project.sessions.values()]
      expect(record?.lastUsedIpInfo?.ip).toBe("203.0.113.7")
      expect(TokenStore.equals(tokens, TokenStore.empty)).toBe(false)
      const refreshToken = record!.refreshToken
      const plain = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(emulator.demo, { "x-stack-refresh-token": refreshToken })
      })
      expect(plain.status).toBe(200)
      expect(record?.lastUsedIpInfo?.ip).toBe("203.0.113.7")
      const moved = yield* send(emulator, {
        method: "POST",
        path: "/api/v1/auth/sessions/current/refresh",
        headers: clientHeaders(emulator.demo, {
          "x-stack-refresh-token": refreshToken,
          "user-agent": browser,
          "cf-connecting-ip": "2001:db8::1",
          "cf-ipcountry": "DE",
          "x-forwarded-for": "203.0.113.7"
        })
      })
      expect(moved.status).toBe(200)
      expect(record?.lastUsedIpInfo).toEqual({ ip: "2001:db8::1", countryCode: "DE" })
    }))

  it("the end user is read only from a browser's proxy headers, and only a valid IP counts", () => {
    const headers = (entries: Record<string, string>) => new Headers(entries)
    expect(endUserIpInfo(headers({ "x-real-ip": "198.51.100.23" }))).toBeUndefined()
    expect(endUserIpInfo(headers({ "user-agent": browser, "x-real-ip": "198.51.100.23", "x-forwarded-for": "203.0.113.7" }))).toEqual({ ip: "198.51.100.23" })
    expect(endUserIpInfo(headers({ "user-agent": browser, "x-forwarded-for": "not-an-ip" }))).toBeUndefined()
    expect(endUserIpInfo(headers({ "user-agent": browser, "x-forwarded-for": "203.0.113.7", "x-vercel-ip-latitude": "north" }))).toEqual({ ip: "203.0.113.7" })
    expect([isIpAddress("127.0.0.1"), isIpAddress("::1"), isIpAddress("2001:db8:85a3:8d3:1319:8a2e:370:7348")]).toEqual([true, true, true])
    expect([isIpAddress(""), isIpAddress("256.256.256.256"), isIpAddress("192.168.1"), isIpAddress("2001:db8::xyz")]).toEqual([false, false, false, false])
  })
})
