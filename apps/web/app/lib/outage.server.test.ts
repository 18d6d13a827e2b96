import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { ApiError } from "#app/lib/api-client.server.ts";
import { OUTAGE_RETRY_AFTER_SECONDS, withOutagePages } from "#app/lib/outage.server.ts";

/** A server build of one route whose loader and action fail with `error`. */
function buildFailingWith(error: unknown): ServerBuild {
  const fail = async () => {
    throw error;
  };
  return {
    routes: {
      page: { id: "page", path: "page", module: { loader: fail, action: fail, default: () => null } },
    },
  } as unknown as ServerBuild;
}

type Thrown = { type?: string; init?: { status?: number; headers?: Record<string, string> } };

async function thrownBy(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("withOutagePages", () => {
  it("turns an unreachable API into the 503 page with Retry-After, in loaders and actions", async () => {
    const unreachable = new ApiError("The service could not be reached", {
      status: 0,
      method: "GET",
      path: "/x",
    });
    const route = withOutagePages(buildFailingWith(unreachable)).routes.page!;
    for (const handler of [route.module.loader!, route.module.action!]) {
      const thrown = (await thrownBy(() => handler({} as never))) as Thrown;
      expect(thrown.type).toBe("DataWithResponseInit");
      expect(thrown.init?.status).toBe(503);
      expect(thrown.init?.headers?.["Retry-After"]).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
    }
  });

  it("leaves every other failure as it was", async () => {
    const refused = new ApiError("Not found", {
      status: 404,
      body: { error: "Not found", code: "NOT_FOUND" },
      method: "GET",
      path: "/x",
    });
    const bug = new TypeError("x is undefined");
    for (const error of [refused, bug]) {
      const route = withOutagePages(buildFailingWith(error)).routes.page!;
      expect(await thrownBy(() => route.module.loader!({} as never))).toBe(error);
    }
  });
});
