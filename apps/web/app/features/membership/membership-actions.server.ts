import { BILLING_INTERVALS, type BillingInterval } from "@ambercare/contracts/membership";
import { isVisitPlanKey } from "@ambercare/contracts/visit-types";
import { data, redirect } from "react-router";
import {
  BILLING_ERROR_OPTIONS,
  startSubscriptionCheckout,
  startVisitCheckout,
} from "#app/features/membership/membership.server.ts";
import type { StartField } from "#app/features/membership/membership-forms.ts";
import { isApiError } from "#app/lib/api-client.server.ts";
import { describeApiError } from "#app/lib/api-errors.ts";
import { type FormErrorResult, formError } from "#app/lib/forms.ts";
import { loginUrl, type SessionUser } from "#app/lib/session.server.ts";

/**
 * The "start a membership" and "buy a visit" forms of the public pages (/membership,
 * /membership-trial, /one-time-visit, /my-profile/manage-subscription). Anonymous visitors are sent
 * to /login with the page to come back to; a logged-in patient goes to the checkout the API names.
 */

export type StartResult = FormErrorResult<StartField>;

function isInterval(value: unknown): value is BillingInterval {
  return typeof value === "string" && (BILLING_INTERVALS as readonly string[]).includes(value);
}

/** Where the patient goes after paying for a membership started on `page`. */
const AFTER_SUBSCRIBING = "/thank-you-for-subscribing";
const AFTER_ORDERING = "/thank-you-for-ordering";

/** `interval` from the form → the membership checkout (a redirect), or the error to show. */
export async function startMembership(request: Request, user: SessionUser | null, formData: FormData) {
  if (!user) throw redirect(loginUrl(request));
  const interval = formData.get("interval");
  const values = { interval: typeof interval === "string" ? interval : "", plan: "" };
  if (!isInterval(interval)) {
    return data<StartResult>(formError(values, { interval: { key: "membership.errors.interval" } }), {
      status: 400,
    });
  }
  try {
    const url = await startSubscriptionCheckout(request, user, { interval, lastUrl: AFTER_SUBSCRIBING });
    return redirect(url);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, BILLING_ERROR_OPTIONS);
    return data<StartResult>(formError(values, {}, failure.message), { status: failure.status });
  }
}

/** `plan` (a one-time plan of visit-types.ts) from the form → the visit checkout, or the error to show. */
export async function startVisit(request: Request, user: SessionUser | null, formData: FormData) {
  if (!user) throw redirect(loginUrl(request));
  const plan = formData.get("plan");
  const values = { interval: "", plan: typeof plan === "string" ? plan : "" };
  if (!isVisitPlanKey(plan)) {
    return data<StartResult>(formError(values, { plan: { key: "membership.errors.plan" } }), {
      status: 400,
    });
  }
  try {
    const url = await startVisitCheckout(request, user, { plan, lastUrl: AFTER_ORDERING });
    return redirect(url);
  } catch (error) {
    if (!isApiError(error)) throw error;
    const failure = describeApiError(error, BILLING_ERROR_OPTIONS);
    return data<StartResult>(formError(values, {}, failure.message), { status: failure.status });
  }
}
