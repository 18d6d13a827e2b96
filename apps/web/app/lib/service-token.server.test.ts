import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "#app/lib/api-client.server.ts";
import { createServiceTokens, describeLoginFailure } from "#app/lib/service-token.server.ts";

/**
 * A real HTTP server playing the care API: `/auth/login` (public bearer + service credential) and a
 * protected `/ambercare/reset-password` that accepts only the tokens it issued and has not revoked.
 */
const PUBLIC_TOKEN = "public-bearer-token-0123456789abcdef";
const SERVICE = { email: "service@ambercare.invalid", password: "service-password-123" };

let server: Server;
let careApiBase: string;
let logins = 0;
let issued: string[] = [];
const revoked = new Set<string>();
let loginFails: false | number = false;
let expiresIn = 18_000;
let seen: Array<{ path: string; authorization?: string; body: string }> = [];

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    seen.push({ path, authorization: req.headers.authorization, body });
    if (path === "/auth/login") {
      if (req.headers.authorization !== `Bearer ${PUBLIC_TOKEN}`)
        return json(res, 401, { error: "Invalid access token" });
      if (loginFails !== false) return json(res, loginFails, { error: "Service down" });
      const { email, password } = JSON.parse(body) as { email: string; password: string };
      if (email !== SERVICE.email || password !== SERVICE.password)
        return json(res, 401, { error: "Incorrect e-mail or password" });
      logins += 1;
      const token = `service-token-${logins}`;
      issued.push(token);
      return json(res, 200, {
        access_token: token,
        token_type: "Bearer",
        expires_in: expiresIn,
        user_id: "0b7f5a0e-8f3a-4b8e-9a51-3f0c2d1e4a5b",
      });
    }
    if (path === "/ambercare/reset-password") {
      const token = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
      if (!issued.includes(token) || revoked.has(token))
        return json(res, 401, { error: "Invalid access token" });
      return json(res, 200, { data: { used: token } });
    }
    return json(res, 404, { error: "No route" });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  careApiBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  server.close();
});

beforeEach(() => {
  logins = 0;
  issued = [];
  revoked.clear();
  loginFails = false;
  expiresIn = 18_000;
  seen = [];
});

function tokens(options: { now?: () => number; password?: string; base?: string } = {}) {
  return createServiceTokens({
    careApiBase: options.base ?? careApiBase,
    credential: () => ({
      email: SERVICE.email,
      password: options.password ?? SERVICE.password,
      publicToken: PUBLIC_TOKEN,
    }),
    now: options.now,
  });
}

type Used = { data: { used: string } };
const reset = (care: { post<T>(path: string, options?: object): Promise<T> }) =>
  care.post<Used>("/ambercare/reset-password", { body: { token: "t".repeat(20), password: "new password" } });

describe("the care service token", () => {
  it("logs in with the service credential and the public bearer, then runs the call with its token", async () => {
    const service = tokens();
    await expect(service.call(reset)).resolves.toEqual({ data: { used: "service-token-1" } });
    expect(seen.map((request) => request.path)).toEqual(["/auth/login", "/ambercare/reset-password"]);
    expect(seen[0]?.authorization).toBe(`Bearer ${PUBLIC_TOKEN}`);
    expect(JSON.parse(seen[0]?.body ?? "{}")).toEqual(SERVICE);
    expect(seen[1]?.authorization).toBe("Bearer service-token-1");
  });

  it("keeps the token in memory: later calls do not log in again", async () => {
    const service = tokens();
    await service.call(reset);
    await service.call(reset);
    await service.call(reset);
    expect(logins).toBe(1);
  });

  it("shares one login between concurrent calls", async () => {
    const service = tokens();
    const results = await Promise.all([service.call(reset), service.call(reset), service.call(reset)]);
    expect(logins).toBe(1);
    expect(results.map((result) => result?.data.used)).toEqual(Array(3).fill("service-token-1"));
  });

  it("logs in again once the cached token is about to expire", async () => {
    let now = 1_000_000;
    expiresIn = 600;
    const service = tokens({ now: () => now });
    await service.call(reset);
    now += (600 - 61) * 1000;
    await service.call(reset);
    expect(logins).toBe(1);
    now += 2_000; // inside the last minute of the token's life
    await expect(service.call(reset)).resolves.toEqual({ data: { used: "service-token-2" } });
    expect(logins).toBe(2);
  });

  it("on a 401 drops the token, logs in again and retries the call once", async () => {
    const service = tokens();
    await service.call(reset);
    revoked.add("service-token-1"); // the API restarted, or the token was revoked
    seen = [];
    await expect(service.call(reset)).resolves.toEqual({ data: { used: "service-token-2" } });
    expect(seen.map((request) => [request.path, request.authorization])).toEqual([
      ["/ambercare/reset-password", "Bearer service-token-1"],
      ["/auth/login", `Bearer ${PUBLIC_TOKEN}`],
      ["/ambercare/reset-password", "Bearer service-token-2"],
    ]);
    // The fresh token is cached in turn.
    await service.call(reset);
    expect(logins).toBe(2);
  });

  it("throws the second 401: it retries once, not forever", async () => {
    const service = tokens();
    let calls = 0;
    const error = await service
      .call(async (care) => {
        calls += 1;
        return care.get("/ambercare/unknown-and-unauthorized");
      })
      .catch((e: unknown) => e);
    // 404 is not a token problem: thrown at once, no retry.
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
    expect(calls).toBe(1);

    calls = 0;
    const twice = await service
      .call(async (care) => {
        calls += 1;
        revoked.add(issued.at(-1) ?? "");
        return reset(care);
      })
      .catch((e: unknown) => e);
    expect(twice).toMatchObject({ status: 401 });
    expect(calls).toBe(2);
  });

  it.each([
    ["a refused credential", { password: "wrong-password-123" }, undefined],
    ["a failing API", {}, 503],
  ] as const)("yields null, without running the call, after %s", async (_name, options, status) => {
    if (status) loginFails = status;
    const service = tokens(options);
    let ran = false;
    const result = await service.call(async (care) => {
      ran = true;
      return reset(care);
    });
    expect(result).toBeNull();
    expect(ran).toBe(false);
    await expect(service.getToken()).resolves.toBeNull();
  });

  it("yields null when the care API cannot be reached, and recovers once it can", async () => {
    const closed = createServer();
    closed.listen(0, "127.0.0.1");
    await once(closed, "listening");
    const port = (closed.address() as AddressInfo).port;
    closed.close();
    await once(closed, "close");
    const failures: unknown[] = [];
    const service = createServiceTokens({
      careApiBase: `http://127.0.0.1:${port}`,
      credential: () => ({ ...SERVICE, publicToken: PUBLIC_TOKEN }),
      onLoginFailure: (error) => failures.push(error),
    });
    await expect(service.call(reset)).resolves.toBeNull();
    expect(failures).toHaveLength(1);
    expect(describeLoginFailure(failures[0])).toBe("care service login failed (HTTP unreachable)");

    // A failed login is not cached: the next call tries again.
    loginFails = 500;
    const flaky = tokens();
    await expect(flaky.call(reset)).resolves.toBeNull();
    loginFails = false;
    await expect(flaky.call(reset)).resolves.toEqual({ data: { used: "service-token-1" } });
  });

  it("never puts the credential in the failure description", async () => {
    const failures: unknown[] = [];
    const service = createServiceTokens({
      careApiBase,
      credential: () => ({ ...SERVICE, password: "wrong-password-123", publicToken: PUBLIC_TOKEN }),
      onLoginFailure: (error) => failures.push(error),
    });
    await service.getToken();
    const text = describeLoginFailure(failures[0]);
    expect(text).toBe("care service login failed (HTTP 401)");
    expect(text).not.toContain("wrong-password");
  });
});
