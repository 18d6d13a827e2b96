import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  signVisitor,
  VISITOR_HEADER,
  VISITOR_SIGNATURE_HEADER,
  verifiedVisitor,
  visitorHeaders,
} from "./visitor.ts";

const hmac = (secret: string, address: string) =>
  createHmac("sha256", secret).update(`ambercare-visitor\u0000${address}`).digest("base64url");

describe("visitor signatures", () => {
  it("signs an address with the secret, the same answer when asked again", () => {
    expect(signVisitor("secret-a", "203.0.113.7")).toBe(hmac("secret-a", "203.0.113.7"));
    expect(signVisitor("secret-a", "203.0.113.7")).toBe(hmac("secret-a", "203.0.113.7"));
    expect(signVisitor("secret-b", "203.0.113.7")).toBe(hmac("secret-b", "203.0.113.7"));
    expect(signVisitor("secret-b", "203.0.113.7")).not.toBe(signVisitor("secret-a", "203.0.113.7"));
  });

  it("keeps every signature right past the number it remembers, and across many secrets", () => {
    for (let i = 0; i < 1100; i++)
      expect(signVisitor("secret-a", `10.0.${i >> 8}.${i & 255}`)).toBe(
        hmac("secret-a", `10.0.${i >> 8}.${i & 255}`),
      );
    for (let i = 0; i < 12; i++) expect(signVisitor(`secret-${i}`, "::1")).toBe(hmac(`secret-${i}`, "::1"));
    expect(signVisitor("secret-a", "10.0.0.0")).toBe(hmac("secret-a", "10.0.0.0"));
  });

  it("accepts its own headers only with the same secret and address", () => {
    const headers = visitorHeaders("secret-a", "::ffff:127.0.0.1");
    const address = headers[VISITOR_HEADER];
    const signature = headers[VISITOR_SIGNATURE_HEADER];
    expect(verifiedVisitor("secret-a", address, signature)).toBe("::ffff:127.0.0.1");
    expect(verifiedVisitor("secret-b", address, signature)).toBeUndefined();
    expect(verifiedVisitor("secret-a", "127.0.0.2", signature)).toBeUndefined();
    expect(verifiedVisitor("secret-a", address, `${signature}x`)).toBeUndefined();
    expect(
      verifiedVisitor("secret-a", "not an address", signVisitor("secret-a", "not an address")),
    ).toBeUndefined();
  });
});
