import { userResponse } from "@ambercare/contracts/auth";
import { describe, expect, it } from "vitest";
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
