import { PENDING_LOGIN_TTL_S, type SecondFactorStatus } from "@ambercare/contracts/second-factor";
import QRCode from "qrcode";
import { revokeToken } from "#app/features/accounts/accounts.server.ts";
import { anonymousApi, publicApi, userApi, visitorHeaders } from "#app/lib/api.server.ts";
import { readCookie, setCookieHeader } from "#app/lib/cookies.server.ts";
import type { SessionLogins, SessionUser } from "#app/lib/session.server.ts";

/**
 * The second factor's calls (ADR 024) for the routes: the code step of a login, the lost-device
 * link, and the patient's setup under My profile, Security. Server-only, like the QR code drawing.
 */

type VisitorContext = { clientIp?: string } | undefined;

/** The pending login between the password step and the code step: HttpOnly, never in the page. */
const PENDING_LOGIN_COOKIE = "pendingLogin";

export function pendingLoginCookie(token: string, options: { secure: boolean }): string {
  return setCookieHeader(PENDING_LOGIN_COOKIE, token, {
    maxAge: PENDING_LOGIN_TTL_S,
    httpOnly: true,
    secure: options.secure,
  });
}

export function clearPendingLoginCookie(options: { secure: boolean }): string {
  return setCookieHeader(PENDING_LOGIN_COOKIE, "", { maxAge: 0, httpOnly: true, secure: options.secure });
}

export function readPendingLogin(request: Request): string | undefined {
  return readCookie(request.headers.get("Cookie"), PENDING_LOGIN_COOKIE) || undefined;
}

/**
 * The code step: the main API checks the code and issues its session, then the care API issues its
 * own for the same (now verified) pending login without the code, which works only once.
 */
export async function completeSecondFactorLogin(
  pendingLoginToken: string,
  code: string,
  context: VisitorContext,
): Promise<SessionLogins> {
  const headers = visitorHeaders(context);
  const main = await anonymousApi().accounts.loginSecondFactor(
    { body: { pending_login_token: pendingLoginToken, code } },
    { headers },
  );
  try {
    const care = await publicApi().accounts.careLoginSecondFactor(
      { body: { pending_login_token: pendingLoginToken } },
      { headers },
    );
    return {
      main: { accessToken: main.access_token, userId: main.user_id },
      care: { accessToken: care.access_token, userId: care.user_id },
    };
  } catch (error) {
    await revokeToken(main.access_token);
    throw error;
  }
}

export async function requestLostDeviceMail(
  pendingLoginToken: string,
  context: VisitorContext,
): Promise<void> {
  await publicApi().accounts.lostDevice(
    { body: { pending_login_token: pendingLoginToken } },
    { headers: visitorHeaders(context) },
  );
}

export async function resetSecondFactor(
  token: string,
  password: string,
  context: VisitorContext,
): Promise<void> {
  await publicApi().accounts.secondFactorReset(
    { body: { token, password } },
    { headers: visitorHeaders(context) },
  );
}

export type SecurityState = SecondFactorStatus & {
  /** The otpauth:// URI as an SVG QR code, drawn here: the browser gets markup, no QR code library. */
  qrSvg: string | null;
};

export async function securityState(request: Request, user: SessionUser): Promise<SecurityState> {
  const status = (await userApi(request, user).accounts.secondFactorStatus()).data;
  const uri = status.pending_setup?.otpauth_uri;
  return { ...status, qrSvg: uri ? await qrCodeSvg(uri) : null };
}

async function qrCodeSvg(text: string): Promise<string> {
  // Error correction M and a 4-module quiet zone, as phone cameras read best.
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 4 });
}

export async function startSecondFactorSetup(request: Request, user: SessionUser): Promise<void> {
  await userApi(request, user).accounts.secondFactorSetup({ body: {} });
}

/** Switches the factor on; answers the recovery codes, which the page shows this once. */
export async function confirmSecondFactor(
  request: Request,
  user: SessionUser,
  code: string,
): Promise<string[]> {
  const answer = await userApi(request, user).accounts.secondFactorConfirm({ body: { code } });
  return answer.data.recovery_codes;
}

/** Ten new recovery codes (the earlier ones stop working); the page shows them this once. */
export async function replaceRecoveryCodes(
  request: Request,
  user: SessionUser,
  input: { password: string; code: string },
  context: VisitorContext,
): Promise<string[]> {
  const answer = await userApi(request, user).accounts.secondFactorRecoveryCodes(
    { body: input },
    { headers: visitorHeaders(context) },
  );
  return answer.data.recovery_codes;
}

export async function disableSecondFactor(
  request: Request,
  user: SessionUser,
  input: { password: string; code: string },
  context: VisitorContext,
): Promise<void> {
  await userApi(request, user).accounts.secondFactorDisable(
    { body: input },
    { headers: visitorHeaders(context) },
  );
}
