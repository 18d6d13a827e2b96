import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "#app/lib/csp.server.ts";

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split("; ").map((directive) => {
      const [name = "", ...values] = directive.split(" ");
      return [name, values];
    }),
  );
}

describe("the Content-Security-Policy", () => {
  it("allows only this site and the nonce by default (ALTCHA's worker is same-origin)", () => {
    const csp = directives(contentSecurityPolicy("abc"));
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc'"]);
    expect(csp.get("connect-src")).toEqual(["'self'"]);
    expect(csp.get("worker-src")).toEqual(["'self'"]);
    expect(csp.has("frame-src")).toBe(false);
    expect(contentSecurityPolicy("abc")).not.toMatch(/google|gstatic|https:/);
  });

  it("adds exactly the analytics script's origin to script-src and connect-src", () => {
    const csp = directives(
      contentSecurityPolicy("abc", { analyticsScriptUrl: "https://stats.example.com/js/script.js?site=x" }),
    );
    expect(csp.get("script-src")).toEqual(["'self'", "'nonce-abc'", "https://stats.example.com"]);
    expect(csp.get("connect-src")).toEqual(["'self'", "https://stats.example.com"]);
    expect(csp.get("img-src")).toEqual(["'self'", "data:"]);
  });

  it("opens Google's reCAPTCHA origins only when reCAPTCHA is configured", () => {
    const csp = directives(contentSecurityPolicy("abc", { recaptcha: true }));
    expect(csp.get("script-src")).toEqual([
      "'self'",
      "'nonce-abc'",
      "https://www.google.com",
      "https://www.gstatic.com",
    ]);
    expect(csp.get("connect-src")).toEqual(["'self'", "https://www.google.com"]);
    expect(csp.get("frame-src")).toEqual(["'self'", "https://www.google.com"]);
  });

  it("names the site's own WebSocket origin in connect-src for the live events socket", () => {
    const https = directives(contentSecurityPolicy("abc", { publicUrl: "https://care.example.org/" }));
    expect(https.get("connect-src")).toEqual(["'self'", "wss://care.example.org"]);
    const local = directives(contentSecurityPolicy("abc", { publicUrl: "http://localhost:3000" }));
    expect(local.get("connect-src")).toEqual(["'self'", "ws://localhost:3000"]);
  });
});
