import { type ApiClient, type ApiClientOptions, createApiClient } from "./api-client.server.ts";
import { apiBases } from "./env.server.ts";

type ClientOptions = Omit<ApiClientOptions, "baseUrl" | "token">;

/** The main API (`${API_URL}/api/v1`): `mainApi(user.accessToken).get("/api/auth/me")`. */
export function mainApi(token?: string | null, options: ClientOptions = {}): ApiClient {
  return createApiClient({ ...options, baseUrl: apiBases.mainApiBase, token });
}

/** The care API (`${CARE_API_URL}`): `careApi(user.careAccessToken).get("/ambercare/consultations")`. */
export function careApi(token?: string | null, options: ClientOptions = {}): ApiClient {
  return createApiClient({ ...options, baseUrl: apiBases.careApiBase, token });
}
