import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type AltchaChallenge,
  encodeAltchaSolution,
  readChallenge,
  solveAltcha,
} from "#app/features/communications/captcha.ts";

function challengeFor(number: number, maxnumber = 5000): AltchaChallenge {
  const salt = "6f1c2e0a9b3d?expires=1790000000";
  return {
    algorithm: "SHA-256",
    challenge: createHash("sha256").update(`${salt}${number}`).digest("hex"),
    maxnumber,
    salt,
    signature: "d2f0aa",
  };
}

describe("ALTCHA proof of work", () => {
  it("finds the number whose SHA-256 with the salt is the challenge", async () => {
    expect(await solveAltcha(challengeFor(0))).toBe(0);
    expect(await solveAltcha(challengeFor(3217))).toBe(3217);
    expect(await solveAltcha(challengeFor(5000))).toBe(5000);
  });

  it("answers null when no number in range solves it (a forged challenge)", async () => {
    expect(await solveAltcha(challengeFor(5001, 5000))).toBeNull();
  });

  it("stops when aborted", async () => {
    const controller = new AbortController();
    controller.abort(new Error("left the page"));
    await expect(solveAltcha(challengeFor(4000), { signal: controller.signal })).rejects.toThrow(
      "left the page",
    );
  });

  it("refuses an algorithm it does not know", async () => {
    await expect(solveAltcha({ ...challengeFor(1), algorithm: "MD5" })).rejects.toThrow(/Unsupported/);
  });

  it("encodes the solution as base64 JSON with the challenge's fields and the number", () => {
    const challenge = challengeFor(42);
    const decoded = JSON.parse(Buffer.from(encodeAltchaSolution(challenge, 42), "base64").toString("utf8"));
    expect(decoded).toEqual({
      algorithm: "SHA-256",
      challenge: challenge.challenge,
      number: 42,
      salt: challenge.salt,
      signature: "d2f0aa",
    });
  });
});

describe("the challenge endpoint's answer", () => {
  it("reads ALTCHA and reCAPTCHA challenges", () => {
    const challenge = challengeFor(1);
    expect(readChallenge({ data: { provider: "altcha", challenge } })).toEqual({
      provider: "altcha",
      challenge,
    });
    expect(readChallenge({ data: { provider: "recaptcha", site_key: "site-key" } })).toEqual({
      provider: "recaptcha",
      site_key: "site-key",
    });
  });

  it("throws on anything else, so a broken answer never passes as solved", () => {
    for (const body of [
      null,
      {},
      { error: "down" },
      { data: { provider: "altcha" } },
      { data: { provider: "altcha", challenge: { ...challengeFor(1), maxnumber: -1 } } },
      { data: { provider: "recaptcha", site_key: "" } },
      { data: { provider: "hcaptcha" } },
    ]) {
      expect(() => readChallenge(body)).toThrow();
    }
  });
});
