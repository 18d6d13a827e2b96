import { anonymousApi } from "#app/lib/api.server.ts";
import { isApiError } from "#app/lib/api-client.server.ts";

/**
 * A provider's uploaded photo by its name, as this host's API answers it from the database every host
 * shares (ADR 070), for the image service (`providerPhotos`). Null when there is no such photo; any
 * other failure (the API down) is thrown, and the image service answers it as a failure, not a 404.
 */
export async function loadProviderPhoto(name: string): Promise<Buffer | null> {
  try {
    const answer = await anonymousApi().directory.providerPhoto({ params: { name } });
    return Buffer.from(await answer.arrayBuffer());
  } catch (error) {
    if (isApiError(error) && (error.status === 400 || error.status === 404)) return null;
    throw error;
  }
}
