import { userResponse } from "@ambercare/contracts/auth";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createApiClient, isApiError } from "#app/lib/api-client.server.ts";
import { createRouteClient, dropUnknownKeys } from "#app/lib/route-client.server.ts";
import { JANE_ACCOUNT } from "#app/lib/test-support.ts";

const USER = JANE_ACCOUNT;

/** A care API transport whose every call answers `body` with `status`, recording the URLs asked. */
function answering(status: number, body: unknown) {
  const urls: string[] = [];
  const care = createApiClient({
    baseUrl: "http://127.0.0.1:9/",
    fetch: async (url) => {
      urls.push(String(url));
      return status === 204
        ? new Response(null, { status })
        : Response.json(body, { status, headers: { "Content-Type": "application/json" } });
    },
  });
  return { api: createRouteClient({ care }, "ambercare"), urls };
}

describe("the typed client", () => {
  it("fills the product and the percent-encoded path parameters, and returns the parsed answer", async () => {
    const { api, urls } = answering(200, { data: USER });
    const answer = await api.accounts.getUserDetails({ params: { userId: USER.id } });
    expect(urls).toEqual([`http://127.0.0.1:9/ambercare/get-user-details/${USER.id}`]);
    expect(answer.data.email).toBe("jane@example.org");
  });

  it("refuses an id that is not one with a 400 ApiError before any call, so it never reaches another path", async () => {
    const { api, urls } = answering(200, { data: USER });
    for (const userId of [`x/../${USER.id}`, "..", ".", "a b/c", `${USER.id}/../../auth/login`]) {
      const error = await api.accounts.getUserDetails({ params: { userId } }).catch((e: unknown) => e);
      expect(isApiError(error) && error.status, userId).toBe(400);
      expect(isApiError(error) && error.code, userId).toBe("VALIDATION_FAILED");
    }
    expect(urls).toEqual([]);
  });

  it("drops fields the contract does not name, at any depth", async () => {
    const { api } = answering(200, { data: { ...USER, added_later: true }, meta_later: 1 });
    const answer = await api.accounts.getUserDetails({ params: { userId: USER.id } });
    expect(answer).toEqual({ data: USER });
    expect(dropUnknownKeys(userResponse, { data: [1] })).toEqual({ data: [1] });
  });

  it("drops unknown keys through every kind of schema an answer is made of", () => {
    const item = z.strictObject({ id: z.string() });
    const lazyItem: z.ZodType = z.lazy(() => item);
    const schema = z.strictObject({
      list: z.array(item),
      byKey: z.record(z.string(), item),
      maybe: item.optional(),
      nothing: item.nullable(),
      fallback: item.default({ id: "d" }),
      frozen: item.readonly(),
      piped: item.pipe(z.object({ id: z.string() })),
      lazy: lazyItem,
      either: z.union([z.strictObject({ a: z.number() }), z.strictObject({ b: z.string() })]),
      tagged: z.discriminatedUnion("kind", [
        z.strictObject({ kind: z.literal("x"), x: z.number() }),
        z.strictObject({ kind: z.literal("y"), y: z.number() }),
      ]),
      text: z.string(),
    });
    const one = { id: "1", extra: true };
    const answer = {
      list: [one, { id: "2" }],
      byKey: { k: one },
      maybe: one,
      nothing: null,
      fallback: one,
      frozen: one,
      piped: one,
      lazy: one,
      either: { b: "b", extra: 1 },
      tagged: { kind: "y", y: 2, extra: 3 },
      text: "t",
      later: { anything: 1 },
    };
    const dropped = dropUnknownKeys(schema, answer);
    expect(dropped).toEqual({
      list: [{ id: "1" }, { id: "2" }],
      byKey: { k: { id: "1" } },
      maybe: { id: "1" },
      nothing: null,
      fallback: { id: "1" },
      frozen: { id: "1" },
      piped: { id: "1" },
      lazy: { id: "1" },
      either: { b: "b" },
      tagged: { kind: "y", y: 2 },
      text: "t",
    });
    expect(schema.safeParse(dropped).success).toBe(true);
    expect(schema.safeParse(answer).success).toBe(false);
    expect(dropUnknownKeys(schema, "not an object")).toBe("not an object");
    expect(dropUnknownKeys(z.array(item), { not: "a list" })).toEqual({ not: "a list" });
  });

  it("throws a 502 ApiError for an answer outside the contract, never a silent undefined", async () => {
    for (const body of [{ data: { ...USER, email: 42 } }, { nothing: true }, "plain text"]) {
      const { api } = answering(200, body);
      const error = await api.accounts
        .getUserDetails({ params: { userId: USER.id } })
        .catch((e: unknown) => e);
      expect(isApiError(error) && error.status).toBe(502);
    }
  });

  it("reads an empty answer as null, and refuses a call on an API it has no transport for", async () => {
    const { api } = answering(204, null);
    await expect(api.consultations.deleteDocument({ params: { id: USER.id } })).resolves.toBeNull();
    expect(() => api.accounts.me()).toThrow(/main API/);
  });
});
