import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { apiBaseUrls, EnvError, parseEnv, resolveServiceSecrets, sharedEnvSchema } from "./server-env.ts";

const dirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), "ambercare-env-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("parseEnv", () => {
  it("applies the defaults of the architecture note", () => {
    const env = parseEnv(sharedEnvSchema, {});
    expect(env.PORT).toBe(3000);
    expect(env.API_PORT).toBe(4000);
    expect(env.API_HOST).toBe("127.0.0.1");
    expect(env.PRODUCT_SLUG).toBe("ambercare");
    expect(env.PRODUCT_NAME).toBe("Ambercare");
    expect(apiBaseUrls(env)).toEqual({
      mainApiBase: "http://127.0.0.1:4000/api/v1",
      careApiBase: "http://127.0.0.1:4000",
    });
  });

  it("names every wrong variable", () => {
    expect(() => parseEnv(sharedEnvSchema, { PORT: "eighty", API_URL: "not a url" })).toThrow(EnvError);
    try {
      parseEnv(sharedEnvSchema, { PORT: "eighty", API_URL: "ftp://x" });
    } catch (error) {
      expect(String(error)).toContain("PORT");
      expect(String(error)).toContain("API_URL");
    }
  });

  it("treats an empty value as unset", () => {
    expect(parseEnv(sharedEnvSchema, { PORT: "" }).PORT).toBe(3000);
  });
});

describe("resolveServiceSecrets", () => {
  it("generates development secrets once and gives every process the same ones", () => {
    const env = parseEnv(sharedEnvSchema, { DATA_DIR: tempDir() });
    const first = resolveServiceSecrets(env);
    const second = resolveServiceSecrets(env);
    expect(second).toEqual(first);
    expect(first.PUBLIC_API_TOKEN.length).toBeGreaterThanOrEqual(32);
    expect(statSync(join(env.DATA_DIR, "dev-secrets.json")).mode & 0o077).toBe(0);
  });

  it("prefers values from the environment", () => {
    const env = parseEnv(sharedEnvSchema, { DATA_DIR: tempDir(), PUBLIC_API_TOKEN: "x".repeat(40) });
    expect(resolveServiceSecrets(env).PUBLIC_API_TOKEN).toBe("x".repeat(40));
  });

  it("refuses to invent secrets for a production deployment on PostgreSQL", () => {
    const env = parseEnv(sharedEnvSchema, {
      DATA_DIR: tempDir(),
      NODE_ENV: "production",
      DATABASE_URL: "postgres://app@db.internal:5432/ambercare",
    });
    expect(() => resolveServiceSecrets(env)).toThrow(/SERVICE_ACCOUNT_PASSWORD: required in production/);
  });

  it("lets the single-host embedded setup run in production mode", () => {
    const env = parseEnv(sharedEnvSchema, { DATA_DIR: tempDir(), NODE_ENV: "production" });
    expect(resolveServiceSecrets(env).SERVICE_ACCOUNT_EMAIL).toBe("service@ambercare.invalid");
  });

  it("rejects a DATABASE_URL that is not PostgreSQL", () => {
    expect(() => parseEnv(sharedEnvSchema, { DATABASE_URL: "mysql://x@y/z" })).toThrow(/DATABASE_URL/);
  });
});
