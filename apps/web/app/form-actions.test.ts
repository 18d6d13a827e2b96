import type { RouteConfigEntry } from "@react-router/dev/routes";
import { describe, expect, it } from "vitest";
import routes from "#app/routes.ts";

/**
 * Every route with an action, sent a body that is not a form and a multipart body that is broken:
 * each must answer a 4xx (or its usual redirect), never throw an error that becomes a 500 with a
 * stack trace in the log.
 */

type Action = (args: {
  request: Request;
  params: Record<string, string>;
  context: unknown;
  /** The matched route's path, as React Router passes it: the page table's access rule is keyed by it. */
  pattern: string;
}) => unknown;

function routeFiles(entries: RouteConfigEntry[]): Array<{ path: string; file: string }> {
  return entries.flatMap((entry) => [
    ...(entry.path === undefined ? [] : [{ path: entry.path, file: entry.file }]),
    ...(entry.index ? [{ path: "", file: entry.file }] : []),
    ...routeFiles(entry.children ?? []),
  ]);
}

const BAD_BODIES: Array<{ label: string; contentType: string; body: string }> = [
  { label: "JSON", contentType: "application/json", body: '{"email":"a@example.org"}' },
  { label: "plain text", contentType: "text/plain", body: "email=a@example.org" },
  { label: "no content type", contentType: "", body: "email=a@example.org" },
  {
    label: "broken multipart",
    contentType: "multipart/form-data; boundary=----edge",
    body: '------edge\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.org',
  },
  { label: "multipart without boundary", contentType: "multipart/form-data", body: "email=a@example.org" },
];

/** The status an action's outcome answers with: a Response, a `data()` result or a plain value (200). */
function statusOf(outcome: unknown): number {
  if (outcome instanceof Response) return outcome.status;
  const init = (outcome as { init?: { status?: number } } | null)?.init;
  return init?.status ?? 200;
}

async function outcomeOf(
  action: Action,
  request: Request,
  pattern: string,
): Promise<{ status: number; error?: unknown }> {
  try {
    return {
      status: statusOf(
        await action({
          request,
          params: { page: "x", checkoutId: "x", invoiceId: "x" },
          context: { cspNonce: "", buildId: "test", clientIp: "127.0.0.1" },
          pattern,
        }),
      ),
    };
  } catch (thrown) {
    if (thrown instanceof Response || (thrown as { type?: string })?.type === "DataWithResponseInit") {
      return { status: statusOf(thrown) };
    }
    return { status: 500, error: thrown };
  }
}

describe("form actions, sent what is not a form", async () => {
  const withActions: Array<{ path: string; action: Action }> = [];
  for (const { path, file } of routeFiles(routes)) {
    const module = (await import(/* @vite-ignore */ `./${file}`)) as { action?: Action };
    if (module.action) withActions.push({ path: `/${path}`, action: module.action });
  }

  it("finds the site's forms", () => {
    expect(withActions.map((entry) => entry.path)).toEqual(
      expect.arrayContaining(["/login", "/sign-up", "/contact-us", "/consultation/form", "/newsletter"]),
    );
  });

  for (const { path, action } of withActions) {
    it(`${path} answers below 500`, async () => {
      const failures: string[] = [];
      for (const bad of BAD_BODIES) {
        const request = new Request(`http://localhost${path.replaceAll(/:\w+/g, "x")}`, {
          method: "POST",
          headers: bad.contentType ? { "Content-Type": bad.contentType } : {},
          body: bad.body,
        });
        if (!bad.contentType) request.headers.delete("Content-Type");
        const { status, error } = await outcomeOf(action, request, path);
        if (status >= 500) failures.push(`${bad.label}: ${status} ${String(error)}`);
      }
      expect(failures).toEqual([]);
    });
  }
});
