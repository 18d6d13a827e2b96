import { INVALID_ACCESS_TOKEN } from "@ambercare/contracts/envelope";
import type { FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { readBearerToken, requireBearer, requirePublicBearer } from "#api/modules/accounts/auth-guards.ts";
import { safeEqual } from "#api/modules/accounts/tokens.ts";
import type { ApiConfig } from "#api/platform/config.ts";
import { AppError } from "#api/platform/errors.ts";

const PUBLIC_TOKEN = "public-token-0123456789abcdefgh";

/** The two things the preHandlers touch: the request's headers and server config, the reply's headers. */
function call(
  handler: (request: FastifyRequest, reply: FastifyReply) => Promise<void>,
  authorization?: string,
) {
  const headers: Record<string, string> = {};
  const request = {
    headers: authorization === undefined ? {} : { authorization },
    server: { config: { PUBLIC_API_TOKEN: PUBLIC_TOKEN } as ApiConfig },
  } as unknown as FastifyRequest;
  const reply = {
    header(name: string, value: string) {
      headers[name] = value;
      return this;
    },
  } as unknown as FastifyReply;
  return { result: handler(request, reply), headers };
}

describe("readBearerToken", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["Bearer", undefined],
    ["Bearer ", undefined],
    ["Basic dXNlcjpwYXNz", undefined],
    ["Bearer two words", undefined],
    ["Bearer abc.def-123", "abc.def-123"],
    ["bearer abc", "abc"],
  ])("%j → %j", (header, expected) => {
    expect(readBearerToken({ headers: header === undefined ? {} : { authorization: header } })).toBe(
      expected,
    );
  });
});

describe("requirePublicBearer", () => {
  it("lets the shared public bearer through", async () => {
    await expect(call(requirePublicBearer, `Bearer ${PUBLIC_TOKEN}`).result).resolves.toBeUndefined();
  });

  it.each([
    ["missing", undefined],
    ["empty", ""],
    ["empty bearer", "Bearer "],
    ["another token", "Bearer public-token-0123456789abcdefgX"],
    ["a prefix of it", `Bearer ${PUBLIC_TOKEN.slice(0, 10)}`],
    ["wrong scheme", `Token ${PUBLIC_TOKEN}`],
  ])("rejects a %s token with 401 'Invalid access token'", async (_label, header) => {
    const { result, headers } = call(requirePublicBearer, header);
    const error = await result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "INVALID_ACCESS_TOKEN", status: 401, message: INVALID_ACCESS_TOKEN });
    expect(headers["www-authenticate"]).toMatch(/^Bearer/);
  });
});

describe("requireBearer", () => {
  it("passes the token to the verifier and honours its answer", async () => {
    const seen: string[] = [];
    const handler = requireBearer(async (token) => {
      seen.push(token);
      return token === "user-token";
    });
    await expect(call(handler, "Bearer user-token").result).resolves.toBeUndefined();
    await expect(call(handler, "Bearer other").result).rejects.toMatchObject({ status: 401 });
    await expect(call(handler).result).rejects.toMatchObject({ status: 401 });
    // The verifier is not even asked when there is no token.
    expect(seen).toEqual(["user-token", "other"]);
  });
});

describe("safeEqual", () => {
  it("compares whole strings of any length", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
