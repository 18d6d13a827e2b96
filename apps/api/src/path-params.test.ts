import { request } from "node:http";
import type { AddressInfo } from "node:net";
import { API_BASES, listApiRoutes } from "@ambercare/contracts/api-routes";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, registerClinician, registerPatient, type TestApp } from "#api/test-support.ts";

/**
 * Path parameters no id can be: overlong UTF-8 (`%C0%AE` is a "." written in two bytes, a classic
 * path-traversal disguise), bytes that are no UTF-8 at all, a lone space, a NUL. Every route of the
 * route table that takes one answers 4xx `{ error }` over real HTTP, for a patient and a clinician:
 * never a 5xx, and never a connection closed without an answer.
 */
const BAD_SEGMENTS = ["%C0%AE%C0%AE%2F", "%C0%AE", "%FF%FE", "%20", "%00", "%E2%80"];

let t: TestApp;
let port: number;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_MAX: "100000", RATE_LIMIT_ADDRESS_MAX: "100000" } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  port = (t.app.server.address() as AddressInfo).port;
  const patient = await registerPatient(t.app);
  const clinician = await registerClinician(t, t.app.clock.now());
  tokens.patientMain = patient.access_token;
  tokens.patientCare = patient.care.access_token;
  tokens.clinician = clinician.access_token;
});

afterAll(async () => {
  await t.close();
});

/** One raw HTTP request: the path is sent byte for byte as given (no URL parser re-encodes it). */
function send(method: string, path: string, token: string, body: string | null) {
  return new Promise<{ status: number; body: string } | { closed: string }>((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === null
            ? {}
            : { "content-type": "application/json", "content-length": Buffer.byteLength(body) }),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", (error) => resolve({ closed: error.message }));
    if (body !== null) req.write(body);
    req.end();
  });
}

describe("path parameters that are no id", () => {
  it("are answered 4xx { error } on every route that takes one, for a patient and a clinician", async () => {
    const routes = listApiRoutes().filter(({ spec }) => spec.path.includes(":"));
    expect(routes.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const { name, spec } of routes) {
      const callers = spec.api === "care" ? [tokens.patientCare] : [tokens.patientMain, tokens.clinician];
      for (const segment of BAD_SEGMENTS) {
        const path =
          API_BASES[spec.api] +
          spec.path.replaceAll("{product}", "ambercare").replaceAll(/:[A-Za-z_]+/g, segment);
        for (const token of callers) {
          const body = spec.method === "GET" || spec.method === "DELETE" ? null : "{}";
          const answer = await send(spec.method, path, token ?? "", body);
          if ("closed" in answer) {
            wrong.push(`${name} ${segment}: connection closed (${answer.closed})`);
            continue;
          }
          let error: unknown;
          try {
            error = (JSON.parse(answer.body) as { error?: unknown }).error;
          } catch {
            error = undefined;
          }
          if (answer.status < 400 || answer.status >= 500 || typeof error !== "string") {
            wrong.push(`${name} ${segment}: ${answer.status} ${answer.body.slice(0, 80)}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
