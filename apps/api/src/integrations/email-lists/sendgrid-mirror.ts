import type { FastifyBaseLogger } from "fastify";
import type { FetchLike } from "#api/platform/http-client.ts";

export const SENDGRID_API = "https://api.sendgrid.com";

/**
 * Mirrors the local e-mail list to SendGrid's Marketing Contacts API (ADR 016). The local list is
 * the source of truth: a failed call is logged (status and operation only, never the address) and
 * never fails the patient's request. Calls run in the background; `drain()` waits for them.
 */
export type ListMirror = {
  /** A confirmed (or resubscribed) address: add or update the contact, lift a suppression. */
  subscribed(email: string): void;
  /** An unsubscribed address: a global suppression, so SendGrid sends it nothing either. */
  unsubscribed(email: string): void;
  /** An address erased at the patient's request: the contact is deleted. */
  erased(email: string): void;
  drain(): Promise<void>;
};

export function createSendgridMirror(deps: {
  apiKey: string | undefined;
  listId: string | undefined;
  fetch: FetchLike;
  log: FastifyBaseLogger;
}): ListMirror {
  const pending = new Set<Promise<void>>();

  async function call(operation: string, path: string, method: string, body?: unknown): Promise<Response> {
    const response = await deps.fetch(`${SENDGRID_API}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${deps.apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
    // 404 on a delete means "already gone", which is what was wanted.
    if (!response.ok && !(method === "DELETE" && response.status === 404)) {
      throw Object.assign(new Error(`SendGrid ${operation} answered ${response.status}`), {
        status: response.status,
      });
    }
    return response;
  }

  function run(operation: string, work: () => Promise<void>): void {
    if (!deps.apiKey) return;
    const job = work().catch((error: unknown) => {
      const status = (error as { status?: unknown }).status;
      deps.log.error(
        { operation, ...(typeof status === "number" ? { status } : { errorType: (error as Error)?.name }) },
        "SendGrid mirror failed",
      );
    });
    pending.add(job);
    void job.finally(() => pending.delete(job));
  }

  return {
    subscribed(email) {
      run("subscribe", async () => {
        await call("upsert", "/v3/marketing/contacts", "PUT", {
          ...(deps.listId ? { list_ids: [deps.listId] } : {}),
          contacts: [{ email }],
        });
        await call("unsuppress", `/v3/asm/suppressions/global/${encodeURIComponent(email)}`, "DELETE");
      });
    },
    unsubscribed(email) {
      run("unsubscribe", async () => {
        await call("suppress", "/v3/asm/suppressions/global", "POST", { recipient_emails: [email] });
      });
    },
    erased(email) {
      run("erase", async () => {
        const found = await call("search", "/v3/marketing/contacts/search/emails", "POST", {
          emails: [email],
        }).catch((error: unknown) => {
          // 404: SendGrid has no such contact; nothing to delete.
          if ((error as { status?: unknown }).status === 404) return undefined;
          throw error;
        });
        if (!found) return;
        const body = (await found.json()) as { result?: Record<string, { contact?: { id?: unknown } }> };
        const id = body.result?.[email]?.contact?.id;
        if (typeof id === "string") {
          await call("delete", `/v3/marketing/contacts?ids=${encodeURIComponent(id)}`, "DELETE");
        }
      });
    },
    async drain() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
