import { once } from "node:events";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_PUBLIC_API_TOKEN, type TestApp } from "#api/test-support.ts";

/**
 * A caller that closes its connection while its body is still being sent (a closed tab, a dropped
 * phone connection) is an everyday event, not a failure: it is logged at info, never as the
 * database being unavailable at error level.
 */
const lines: Array<{ level: number; msg?: string }> = [];
let t: TestApp;
let port = 0;

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    env: { LOG_LEVEL: "info" },
    logStream: { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg?: string }) },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as { port: number }).port;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("a request the client aborts", () => {
  it("is logged at info as the client's doing, not as the database at error", async () => {
    const socket = connect(port, "127.0.0.1");
    await once(socket, "connect");
    socket.write(
      `POST /api/v1/api/auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_PUBLIC_API_TOKEN}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"email":"someone@exam`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();

    const told = (line: { msg?: string }) =>
      line.msg === "the client closed the request before its body was read";
    // Whatever the API makes of it, it says so: an error line, or the info line.
    await expect.poll(() => lines.some((line) => line.level >= 50 || told(line))).toBe(true);
    expect(lines.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([]);
    expect(lines.some(told)).toBe(true);
  });
});
