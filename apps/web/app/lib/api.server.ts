import { visitorHeaders as signedVisitorHeaders } from "@ambercare/contracts/visitor";
import { type ApiClient, type ApiClientOptions, createApiClient } from "#app/lib/api-client.server.ts";
import { apiBases, env, getServiceSecrets } from "#app/lib/env.server.ts";
import { createRouteClient, type Transports, type TypedApi } from "#app/lib/route-client.server.ts";
import {
  createServiceTokens,
  describeLoginFailure,
  type ServiceTokens,
} from "#app/lib/service-token.server.ts";
import { logoutEvent, type SessionUser } from "#app/lib/session.server.ts";

/**
 * The API clients loaders and actions use (docs/decisions/002: the web server is the only client of
 * both APIs). Each is the typed client of the route table (route-client.server.ts) over the
 * transports of one credential. Which one to take:
 *
 * - a logged-in user's data → `userApi(request, user)`: both APIs with the user's tokens; a 401 is
 *   the logout event (cookies cleared, → /login?redirectTo=…), thrown for you.
 * - a call that needs no token (login, register, the specializations) → `anonymousApi()`.
 * - a public call with the shared public bearer PUBLIC_API_TOKEN (ADR 003: forgot password, the
 *   provider search, the newsletter, unsubscribe, the care API login) → `publicApi()`.
 * - a public care-API call for a visitor (reset password, a visitor's contact entry…) →
 *   `serviceApi(api => …)`: the built-in service credential (ADR 008); `null` means the service
 *   login failed.
 *
 * The care API's paths carry the product (PRODUCT_SLUG): the client fills it in. No credential here
 * ever reaches the browser.
 */

type ClientOptions = Omit<ApiClientOptions, "baseUrl" | "token">;

/** The main API's transport (`${API_URL}/api/v1`). */
function mainTransport(token?: string | null, options: ClientOptions = {}): ApiClient {
  return createApiClient({ ...options, baseUrl: apiBases.mainApiBase, token });
}

/** The care API's transport (`${CARE_API_URL}`). */
function careTransport(token?: string | null, options: ClientOptions = {}): ApiClient {
  return createApiClient({ ...options, baseUrl: apiBases.careApiBase, token });
}

function typedApi(transports: Transports): TypedApi {
  return createRouteClient(transports, env.PRODUCT_SLUG);
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

/** Both APIs without a token (the main API's login and register, the specializations…). */
export function anonymousApi(options: ClientOptions = {}): TypedApi {
  return typedApi({ main: mainTransport(null, options), care: careTransport(null, options) });
}

/** Both APIs with the shared public bearer (ADR 003). */
export function publicApi(options: ClientOptions = {}): TypedApi {
  const token = getServiceSecrets().PUBLIC_API_TOKEN;
  return typedApi({ main: mainTransport(token, options), care: careTransport(token, options) });
}

/**
 * The care API with a user's own token and no logout seam: for a call whose 401 the caller reads
 * itself (closing the account asks for the password again; a wrong one must come back to the form).
 */
export function ownTokenCareApi(careAccessToken: string): TypedApi {
  return typedApi({ care: careTransport(careAccessToken) });
}

/** The main API with one token, no logout seam (revoking a token at logout). */
export function tokenMainApi(accessToken: string): TypedApi {
  return typedApi({ main: mainTransport(accessToken) });
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

/** Runs `call` with the care API under the service token (see ServiceTokens.call); `null`: login failed. */
export function serviceApi<T>(call: (api: TypedApi) => Promise<T>): Promise<T | null> {
  return careService.call((care) => call(typedApi({ care })));
}

/**
 * Both APIs with the logged-in user's tokens. A 401 from either is the logout event
 * (the token expired or was revoked: the logged-in state is lost): the call throws the redirect to
 * /login?redirectTo=<this page> with every session cookie cleared, which React Router sends as is.
 * Catch only `ApiError`s around these calls and rethrow anything else.
 */
export function userApi(request: Request, user: SessionUser): TypedApi {
  const onUnauthorized = () => {
    throw logoutEvent(request);
  };
  return typedApi({
    main: mainTransport(user.accessToken, { onUnauthorized }),
    care: careTransport(user.careAccessToken, { onUnauthorized }),
  });
}
