import { data } from "react-router";
import { isApiError } from "#app/lib/api-client.server.ts";

/**
 * Runs a lookup of one record by id and turns "no such record for you" into the site's 404 page:
 * the API answers 404 for a record that does not exist or belongs to someone else (and 400 for an
 * id that cannot exist), and the page must not tell those apart.
 */
export async function orNotFound<T>(lookup: () => Promise<T>): Promise<T> {
  try {
    return await lookup();
  } catch (error) {
    if (isApiError(error) && [400, 403, 404].includes(error.status)) {
      throw data("Page Not Found", { status: 404 });
    }
    throw error;
  }
}
