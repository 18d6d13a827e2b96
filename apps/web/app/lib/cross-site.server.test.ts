import { describe, expect, it } from "vitest";
import { isCrossSiteWrite, originIsSite } from "#app/lib/cross-site.server.ts";

const host = "care.example.org";
const write = (headers: Record<string, string>, method = "POST") => ({
  method,
  headers: { host, ...headers },
});

describe("isCrossSiteWrite", () => {
  it("lets the site's own writes through, by Host when PUBLIC_URL is unset", () => {
    expect(isCrossSiteWrite(write({ origin: `https://${host}` }), undefined)).toBe(false);
    expect(isCrossSiteWrite(write({ origin: `http://${host}` }, "PUT"), undefined)).toBe(false);
  });

  it("holds the Origin to PUBLIC_URL when it is set, scheme and port included", () => {
    const site = `https://${host}`;
    expect(isCrossSiteWrite(write({ origin: site }), site)).toBe(false);
    expect(isCrossSiteWrite(write({ origin: `http://${host}` }), site)).toBe(true);
    expect(isCrossSiteWrite(write({ origin: `https://${host}:8443` }), site)).toBe(true);
  });

  it("refuses another site, a sibling subdomain, Origin: null and an Origin that is no URL", () => {
    for (const origin of ["https://evil.example", `https://chat.${host}`, "null", "not a url"]) {
      expect(isCrossSiteWrite(write({ origin }), undefined), origin).toBe(true);
      expect(isCrossSiteWrite(write({ origin }, "DELETE"), `https://${host}`), origin).toBe(true);
    }
  });

  it("judges a request without Origin by Sec-Fetch-Site, and lets a non-browser client through", () => {
    expect(isCrossSiteWrite(write({ "sec-fetch-site": "cross-site" }), undefined)).toBe(true);
    expect(isCrossSiteWrite(write({ "sec-fetch-site": "same-site" }), undefined)).toBe(true);
    expect(isCrossSiteWrite(write({ "sec-fetch-site": "same-origin" }), undefined)).toBe(false);
    expect(isCrossSiteWrite(write({}), undefined)).toBe(false);
  });

  it("never refuses a read", () => {
    for (const method of ["GET", "HEAD", "OPTIONS", "get"]) {
      expect(isCrossSiteWrite(write({ origin: "https://evil.example" }, method), undefined)).toBe(false);
    }
  });
});

describe("originIsSite", () => {
  it("is false without an Origin", () => {
    expect(originIsSite({ host }, undefined)).toBe(false);
  });
});
