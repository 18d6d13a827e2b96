import { data, redirect } from "react-router";
import { CONSENT_COOKIE, CONSENT_MAX_AGE_S, isConsentChoice } from "#app/lib/consent.ts";
import { setCookieHeader } from "#app/lib/cookies.server.ts";
import { isSecureRequest } from "#app/lib/env.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { backTo, isNavigation } from "#app/lib/resource-forms.server.ts";
import type { Route } from "./+types/cookie-consent";

/**
 * `POST /cookie-consent`: the consent banner's Accept / Decline (`choice=granted|denied`) and the
 * footer's "Cookie preferences" (`choice=reset`, which shows the banner again). The choice is kept
 * for a year in a first-party cookie. A fetcher gets `{ consent }`; without JavaScript the visitor
 * goes back to the page.
 */
export async function action({ request }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const choice = formData.get("choice");
  if (choice !== "reset" && !isConsentChoice(choice)) {
    return data({ error: "Choose granted, denied or reset." }, { status: 400 });
  }
  const secure = isSecureRequest(request);
  const cookie =
    choice === "reset"
      ? setCookieHeader(CONSENT_COOKIE, "", { maxAge: 0, httpOnly: true, secure })
      : setCookieHeader(CONSENT_COOKIE, choice, { maxAge: CONSENT_MAX_AGE_S, httpOnly: true, secure });
  const headers = { "Set-Cookie": cookie };
  if (isNavigation(request)) return redirect(backTo(request, formData), { status: 303, headers });
  return data({ consent: choice === "reset" ? null : choice }, { headers });
}

export function loader() {
  return redirect("/");
}
