import { describe, expect, it } from "vitest";
import { forgotPasswordRequest, mainRegisterRequest } from "./auth.ts";
import {
  CONTACT_MESSAGE_MAX_LENGTH,
  captchaChallengeSchema,
  contactEntryRequest,
  listTokenEmail,
} from "./communications.ts";

describe("listTokenEmail", () => {
  const payload = (text: string) => Buffer.from(text, "utf8").toString("base64url");

  it("reads the address of an unsubscribe token without verifying it", () => {
    expect(listTokenEmail(`${payload("newsletter\nана@example.org")}.sig`)).toBe("ана@example.org");
  });

  it.each([
    ["no payload", ".sig"],
    ["not base64url", "a+b/c.sig"],
    ["no address", `${payload("newsletter\n")}.sig`],
    ["no list", `${payload("jane@example.org")}.sig`],
  ])("answers null for %s", (_label, token) => {
    expect(listTokenEmail(token)).toBeNull();
  });
});

describe("captcha fields", () => {
  const patient = { email: "a@example.org", password: "long enough pass", first_name: "A", last_name: "B" };

  it("lets register and forgot-password carry a captcha, and nothing else new", () => {
    expect(mainRegisterRequest.parse({ ...patient, captcha: "abc" }).captcha).toBe("abc");
    expect(forgotPasswordRequest.parse({ email: "a@example.org", captcha: "abc" }).captcha).toBe("abc");
    expect(
      forgotPasswordRequest.safeParse({ email: "a@example.org", captcha: "x".repeat(4097) }).success,
    ).toBe(false);
    expect(mainRegisterRequest.safeParse({ ...patient, extra: 1 }).success).toBe(false);
  });

  it("describes both challenge kinds", () => {
    expect(captchaChallengeSchema.safeParse({ provider: "recaptcha", site_key: "k" }).success).toBe(true);
    expect(
      captchaChallengeSchema.safeParse({ provider: "altcha", challenge: { algorithm: "SHA-1" } }).success,
    ).toBe(false);
  });
});

describe("contactEntryRequest", () => {
  const entry = { name: " Ana ", email: "Ana@Example.org", topic: "general", message: " Hi " };

  it("trims and normalises", () => {
    expect(contactEntryRequest.parse(entry)).toEqual({
      name: "Ana",
      email: "ana@example.org",
      topic: "general",
      message: "Hi",
    });
  });

  it("keeps the message under its limit", () => {
    const at = { ...entry, message: "x".repeat(CONTACT_MESSAGE_MAX_LENGTH) };
    expect(contactEntryRequest.safeParse(at).success).toBe(true);
    expect(contactEntryRequest.safeParse({ ...at, message: `${at.message}x` }).success).toBe(false);
  });
});
