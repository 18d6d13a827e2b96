import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import helmet, { type HelmetOptions } from "helmet";
import { describe, expect, it } from "vitest";
import { helmetHeaders } from "#api/platform/security-headers.ts";

/** The headers helmet sets on a real answer of a plain Node server. */
async function headersOfRealAnswer(options: HelmetOptions): Promise<Record<string, string>> {
  const middleware = helmet(options);
  const server = createServer((request, response) => {
    middleware(request, response, () => response.end("{}"));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    const ignored = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);
    return Object.fromEntries([...answer.headers].filter(([name]) => !ignored.has(name)));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

describe("the API's security headers", () => {
  it("are the very headers helmet sets on an answer, worked out once", async () => {
    for (const options of [
      {},
      {
        contentSecurityPolicy: { directives: { upgradeInsecureRequests: null, frameAncestors: ["'none'"] } },
        frameguard: { action: "deny" },
      } satisfies HelmetOptions,
    ]) {
      const once = helmetHeaders(options);
      expect(Object.keys(once).length).toBeGreaterThan(8);
      expect(once).toEqual(await headersOfRealAnswer(options));
    }
  });
});
