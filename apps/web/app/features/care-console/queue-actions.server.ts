import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import type { FormMessage } from "#app/lib/forms.ts";
import type { ConsoleApi } from "./console.server.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type QueueActionResult =
  | { kind: "accepted"; visitId: string }
  | { kind: "done"; status: number; ok: boolean; message: FormMessage };

/** A refused call as the queue says it; no answer or a 5xx is the site's error page. */
function refused(error: unknown): QueueActionResult {
  if (!isApiError(error) || error.status >= 500 || error.status === 0) throw error;
  if (error.code === "CONSULTATION_ALREADY_TAKEN") {
    return { kind: "done", status: 409, ok: false, message: { key: "console.queue.taken" } };
  }
  const { message } = describeApiError(error, { fallback: { key: "console.queue.failed" } });
  return { kind: "done", status: error.status, ok: false, message };
}

/**
 * The queue page's forms: `intent=duty` (`on_duty` "true"/"false") and `intent=accept` (`id`).
 * Accepting opens the visit's workspace; a request a colleague took first is said plainly (and the
 * page's next read of the queue no longer lists it).
 */
export async function runQueueAction(
  api: Pick<ConsoleApi, "accept" | "setDuty">,
  form: FormData,
): Promise<QueueActionResult> {
  const field = (name: string) => String(form.get(name) ?? "");
  try {
    switch (field("intent")) {
      case "duty": {
        const onDuty = field("on_duty") === "true";
        await api.setDuty(onDuty);
        return {
          kind: "done",
          status: 200,
          ok: true,
          message: { key: onDuty ? "console.duty.changedOn" : "console.duty.changedOff" },
        };
      }
      case "accept": {
        const id = field("id");
        if (!UUID.test(id)) break;
        await api.accept(id);
        return { kind: "accepted", visitId: id };
      }
    }
  } catch (error) {
    return refused(error);
  }
  return { kind: "done", status: 400, ok: false, message: { key: "console.queue.failed" } };
}
