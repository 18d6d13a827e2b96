import { ApiError } from "#app/lib/api-client.server.ts";

/** A submitted form with these fields. */
export function formOf(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** A console call the API refused with this status and code. */
export function apiRefusal(status: number, code?: string): ApiError {
  return new ApiError("refused", {
    status,
    body: code ? { error: "refused", code } : undefined,
    method: "POST",
    path: "/api/care-team/visits/x",
  });
}
