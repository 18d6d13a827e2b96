import { tmpdir } from "node:os";
import { join } from "node:path";
import { AUTH_ERRORS } from "@ambercare/contracts/auth";
import { describe, expect, it } from "vitest";
import {
  createPasswords,
  loadCommonPasswords,
  passwordProblem,
  verifyPassword,
} from "#api/modules/accounts/passwords.ts";
import { createKeyedHash, generateToken, hashToken } from "#api/modules/accounts/tokens.ts";
import { PRODUCTION_ARGON2_PARAMS } from "#api/platform/argon2-params.ts";
import { loadConfig } from "#api/platform/config.ts";
import { testConfig } from "#api/test-support.ts";

/** Every secret given, so that loading a production configuration writes no file. */
const productionSecrets = {
  DATA_DIR: join(tmpdir(), "ambercare-passwords-test"),
  PUBLIC_API_TOKEN: "public-token-0123456789abcdefgh",
  SERVICE_ACCOUNT_EMAIL: "service@example.org",
  SERVICE_ACCOUNT_PASSWORD: "a-long-service-password",
  CAPTCHA_HMAC_KEY: "captcha-hmac-key-0123456789abcdefgh",
  LIST_TOKEN_SECRET: "list-token-secret-0123456789abcdefgh",
  SECOND_FACTOR_KEY: "second-factor-key-0123456789abcdefgh",
};

const context = { email: "jane.doe1990@example.org", productNames: ["Ambercare", "ambercare"] };

describe("the common-password list", () => {
  it("holds at least the 1,000 most common passwords, lower-cased, without comment lines", () => {
    const list = loadCommonPasswords();
    expect(list.size).toBeGreaterThanOrEqual(1_000);
    for (const common of ["123456", "password", "12345678", "qwerty", "iloveyou", "trustno1"]) {
      expect(list.has(common), common).toBe(true);
    }
    expect([...list].some((entry) => entry.startsWith("#"))).toBe(false);
    expect([...list].every((entry) => entry === entry.toLowerCase())).toBe(true);
  });
});

describe("passwordProblem", () => {
  it.each([
    ["password", AUTH_ERRORS.passwordTooCommon],
    ["Password1", AUTH_ERRORS.passwordTooCommon],
    ["BASEBALL", AUTH_ERRORS.passwordTooCommon],
    ["jane.doe1990@example.org", AUTH_ERRORS.passwordIsEmail],
    ["Jane.Doe1990@Example.org", AUTH_ERRORS.passwordIsEmail],
    ["jane.doe1990", AUTH_ERRORS.passwordIsEmail],
    ["ambercare", AUTH_ERRORS.passwordHasProductName],
    ["I love AmberCare!", AUTH_ERRORS.passwordHasProductName],
    ["amber care 2025", AUTH_ERRORS.passwordHasProductName],
    ["correct horse battery staple", null],
    ["zzzzzzzz", null],
    ["пролетна ливада", null],
  ])("%j → %j", (password, expected) => {
    expect(passwordProblem(password, context)).toBe(expected);
  });
});

describe("password hashing", () => {
  /** What a production deployment hashes with: the configuration's default (NODE_ENV=production). */
  const production = () =>
    createPasswords(
      loadConfig({ NODE_ENV: "production", MAIL_TO_FILES: "true", ...productionSecrets }).ARGON2_PARAMS,
    );
  /** What every other test hashes with (test-support.ts). */
  const cheap = createPasswords(testConfig().ARGON2_PARAMS);

  // The one test that hashes at the production cost; every other one uses TEST_ARGON2_PARAMS.
  it("uses argon2id with the OWASP parameters in production and verifies only the right password", async () => {
    const passwords = production();
    expect(passwords.params).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(passwords.params).toEqual(PRODUCTION_ARGON2_PARAMS);
    const hash = await passwords.hash("correct horse battery staple");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(await verifyPassword(hash, "correct horse battery staple")).toBe(true);
    expect(await verifyPassword(hash, "correct horse battery stapler")).toBe(false);
    expect(await passwords.hash("correct horse battery staple")).not.toBe(hash);
    expect(passwords.needsRehash(hash)).toBe(false);
  });

  it("treats a value that is not an argon2 hash as a wrong password", async () => {
    expect(await verifyPassword("not-a-hash", "anything")).toBe(false);
    expect(production().needsRehash("not-a-hash")).toBe(true);
    expect(cheap.needsRehash("not-a-hash")).toBe(true);
  });

  it("asks for a re-hash of a hash made with other parameters", async () => {
    const weak = await createPasswords({ ...cheap.params, memoryCost: 32 }).hash(
      "correct horse battery staple",
    );
    expect(weak).toMatch(/^\$argon2id\$v=19\$m=32,t=1,p=1\$/);
    expect(await verifyPassword(weak, "correct horse battery staple")).toBe(true);
    expect(cheap.needsRehash(weak)).toBe(true);
    expect(production().needsRehash(weak)).toBe(true);
    expect(cheap.needsRehash(await cheap.hash("correct horse battery staple"))).toBe(false);
  });

  it("checks a dummy hash for unknown accounts, and never says yes", async () => {
    await cheap.prepareDummyHash();
    expect(await cheap.verifyDummyPassword("anything at all")).toBe(false);
  });
});

describe("tokens", () => {
  it("are 32 random bytes in base64url, stored as SHA-256 hex", () => {
    const a = generateToken();
    const b = generateToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, "base64url")).toHaveLength(32);
    expect(a).not.toBe(b);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
    expect(hashToken(a)).not.toBe(hashToken(b));
  });

  it("hash counter keys under a secret, per purpose", () => {
    const one = createKeyedHash("first secret of enough length");
    const two = createKeyedHash("second secret of enough length");
    expect(one("login-address", "192.0.2.1")).toMatch(/^[0-9a-f]{64}$/);
    expect(one("login-address", "192.0.2.1")).toBe(one("login-address", "192.0.2.1"));
    expect(one("login-address", "192.0.2.1")).not.toBe(two("login-address", "192.0.2.1"));
    expect(one("login-address", "192.0.2.1")).not.toBe(one("login-account", "192.0.2.1"));
  });
});
