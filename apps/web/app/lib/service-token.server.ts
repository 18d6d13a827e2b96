import { type ApiClient, createApiClient, isApiError } from "#app/lib/api-client.server.ts";
import { createRouteClient } from "#app/lib/route-client.server.ts";
import { runAsWebServer } from "#app/lib/visitor.server.ts";

/**
 * The care API's built-in service credential (ADR 008): a public care call (password reset…) made
 * without a user token first logs in with the service account, then runs with that token. A failed
 * service login yields `null`, never a crash: the caller shows "service unavailable, try
 * again".
 *
 * The token is cached in this process's memory until shortly before it expires. That is a cache of
 * a credential, not state another instance needs (architecture "Processes and URLs"): any instance
 * can log in again, and a 401 (the token was revoked, or the API restarted) drops it and logs in
 * once more before the call is retried.
 *
 *   const result = await serviceApi((api) => api.accounts.resetPassword({ body })); // api.server.ts
 *   if (result === null) → "service unavailable"
 */

export type ServiceCredential = {
  /** SERVICE_ACCOUNT_EMAIL / SERVICE_ACCOUNT_PASSWORD. */
  email: string;
  password: string;
  /** PUBLIC_API_TOKEN: the care API's /auth/login takes the shared public bearer. */
  publicToken: string;
};

export type ServiceTokenOptions = {
  careApiBase: string;
  /** Read at each login, never stored beside the token. */
  credential: () => ServiceCredential;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch (tests move time). */
  now?: () => number;
  /** A cached token is renewed this many seconds before it expires. Default 60. */
  renewBeforeS?: number;
  timeoutMs?: number;
  /** Told when the service login fails (the status only; never the credential). */
  onLoginFailure?: (error: unknown) => void;
};

export type ServiceTokens = {
  /** A service token from the cache or a fresh login; `null` when the service login fails. */
  getToken(): Promise<string | null>;
  /** Forgets `token` if it is still the cached one (all of the cache when omitted). */
  invalidate(token?: string): void;
  /**
   * Runs `call` with a care API client carrying the service token. On a 401 the token is dropped,
   * the service logs in again and the call is retried once; a second 401 is thrown to the caller.
   * `null` when the service login fails. Other API errors are thrown as `ApiError`.
   */
  call<T>(call: (care: ApiClient) => Promise<T>): Promise<T | null>;
};

export function createServiceTokens(options: ServiceTokenOptions): ServiceTokens {
  const now = options.now ?? Date.now;
  const renewBeforeMs = (options.renewBeforeS ?? 60) * 1000;
  let cached: { token: string; renewAt: number } | null = null;
  let pending: Promise<string | null> | null = null;

  async function login(): Promise<string | null> {
    const credential = options.credential();
    const care = createApiClient({
      baseUrl: options.careApiBase,
      token: credential.publicToken,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
    });
    try {
      // The care API's login carries no product slug in its path.
      const answer = await createRouteClient({ care }, "").accounts.careLogin({
        body: { email: credential.email, password: credential.password },
      });
      // The service account never has a second factor (the API refuses to set one up for it).
      if (!("access_token" in answer)) throw new Error("the service login asked for a second factor");
      const lifetimeMs = answer.expires_in * 1000;
      // A token shorter-lived than the margin is still used once rather than never cached.
      cached = { token: answer.access_token, renewAt: now() + Math.max(lifetimeMs - renewBeforeMs, 0) };
      return answer.access_token;
    } catch (error) {
      cached = null;
      options.onLoginFailure?.(error);
      return null;
    }
  }

  function getToken(): Promise<string | null> {
    if (cached && now() < cached.renewAt) return Promise.resolve(cached.token);
    // Concurrent callers share one login.
    // The web server's own login, shared by whichever visitors wait for it: counted for none of them.
    pending ??= runAsWebServer(login).finally(() => {
      pending = null;
    });
    return pending;
  }

  function invalidate(token?: string): void {
    if (token === undefined || cached?.token === token) cached = null;
  }

  function client(token: string): ApiClient {
    return createApiClient({
      baseUrl: options.careApiBase,
      token,
      fetch: options.fetch,
      timeoutMs: options.timeoutMs,
    });
  }

  async function call<T>(run: (care: ApiClient) => Promise<T>): Promise<T | null> {
    const token = await getToken();
    if (token === null) return null;
    try {
      return await run(client(token));
    } catch (error) {
      if (!isApiError(error) || error.status !== 401) throw error;
      invalidate(token);
      const fresh = await getToken();
      if (fresh === null) return null;
      return await run(client(fresh));
    }
  }

  return { getToken, invalidate, call };
}

/** Describes a failed service login for the server log: the status, never the credential. */
export function describeLoginFailure(error: unknown): string {
  if (isApiError(error)) return `care service login failed (HTTP ${error.status || "unreachable"})`;
  return "care service login failed (unexpected answer)";
}
