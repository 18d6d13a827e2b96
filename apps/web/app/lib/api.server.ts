import { visitorHeaders as signedVisitorHeaders } from "@ambercare/contracts/visitor";
import { type ApiClient, type ApiClientOptions, createApiClient } from "#app/lib/api-client.server.ts";
import { apiBases, env, getServiceSecrets } from "#app/lib/env.server.ts";
import {
  createServiceTokens,
  describeLoginFailure,
  type ServiceTokens,
} from "#app/lib/service-token.server.ts";
import { logoutEvent, type SessionUser } from "#app/lib/session.server.ts";

/**
 * The API clients loaders and actions use (docs/decisions/002: the web server is the only client of
 * both APIs). Which one to take:
 *
 * - a logged-in user's data → `userApis(request, user)`: both APIs with the user's tokens; a 401 is
 *   the logout event (cookies cleared, → /login?redirectTo=…), thrown for you.
 * - a public main-API call (forgot password, unsubscribe, contact form…) → `publicMainApi()`: the
 *   shared public bearer PUBLIC_API_TOKEN (ADR 003).
 * - a public care-API call (reset password, register-{product}…) → `careService.call(care => …)`:
 *   the built-in service credential (ADR 008); `null` means the service login failed.
 * - care API login → `careLoginApi()` (the shared public bearer).
 *
 * Paths on the care API carry the product: `careAuthPath("/reset-password")` →
 * `/auth/ambercare/reset-password`, `careProductPath("/update-user")` → `/ambercare/update-user`.
 * No credential here ever reaches the browser.
 */

type ClientOptions = Omit<ApiClientOptions, "baseUrl" | "token">;

/** The main API (`${API_URL}/api/v1`): `mainApi(user.accessToken).get("/api/auth/me")`. */
export function mainApi(token?: string | null, options: ClientOptions = {}): ApiClient {
  return createApiClient({ ...options, baseUrl: apiBases.mainApiBase, token });
}

/** The care API (`${CARE_API_URL}`): `careApi(user.careAccessToken).get("/ambercare/consultations")`. */
export function careApi(token?: string | null, options: ClientOptions = {}): ApiClient {
  return createApiClient({ ...options, baseUrl: apiBases.careApiBase, token });
}

/** `/${PRODUCT_SLUG}${path}`: `careProductPath("/update-user")` → `/ambercare/update-user`. */
export function careProductPath(path: `/${string}`): string {
  return `/${env.PRODUCT_SLUG}${path}`;
}

/** `/auth/${PRODUCT_SLUG}${path}`: `careAuthPath("/reset-password")` → `/auth/ambercare/reset-password`. */
export function careAuthPath(path: `/${string}`): string {
  return `/auth/${env.PRODUCT_SLUG}${path}`;
}

/**
 * Headers that tell the API who the visitor is, so its limits count per visitor and not per web
 * server: the visitor's address, signed with PUBLIC_API_TOKEN (ADR 025). Every call already carries
 * them for the request being answered (visitor.server.ts); a loader may still name `clientIp` (the
 * load context's `req.ip`) explicitly, with the same result.
 */
export function visitorHeaders(context: { clientIp?: string } | undefined): HeadersInit {
  const ip = context?.clientIp;
  return ip ? signedVisitorHeaders(getServiceSecrets().PUBLIC_API_TOKEN, ip) : {};
}

/** The main API with the shared public bearer (ADR 003). */
export function publicMainApi(options: ClientOptions = {}): ApiClient {
  return mainApi(getServiceSecrets().PUBLIC_API_TOKEN, options);
}

/** The care API's `/auth/login` takes the shared public bearer (ADR 003). */
export function careLoginApi(options: ClientOptions = {}): ApiClient {
  return careApi(getServiceSecrets().PUBLIC_API_TOKEN, options);
}

/** The service token of this process (see service-token.server.ts). */
export const careService: ServiceTokens = createServiceTokens({
  careApiBase: apiBases.careApiBase,
  credential: () => {
    const secrets = getServiceSecrets();
    return {
      email: secrets.SERVICE_ACCOUNT_EMAIL,
      password: secrets.SERVICE_ACCOUNT_PASSWORD,
      publicToken: secrets.PUBLIC_API_TOKEN,
    };
  },
  onLoginFailure: (error) => console.warn(describeLoginFailure(error)),
});

/**
 * Both APIs with the logged-in user's tokens. A 401 from either is the logout event
 * (the token expired or was revoked: the logged-in state is lost): the call throws the redirect to
 * /login?redirectTo=<this page> with every session cookie cleared, which React Router sends as is.
 * Catch only `ApiError`s around these calls and rethrow anything else.
 */
export function userApis(request: Request, user: SessionUser): { main: ApiClient; care: ApiClient } {
  const onUnauthorized = () => {
    throw logoutEvent(request);
  };
  return {
    main: mainApi(user.accessToken, { onUnauthorized }),
    care: careApi(user.careAccessToken, { onUnauthorized }),
  };
}
