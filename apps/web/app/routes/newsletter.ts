import { data, redirect } from "react-router";
import type { NewsletterOutcome } from "#app/features/communications/newsletter-form.tsx";
import { subscribe } from "#app/features/communications/notify-me.server.ts";
import { readFormData } from "#app/lib/form-body.server.ts";
import { backTo, isNavigation } from "#app/lib/resource-forms.server.ts";
import type { Route } from "./+types/newsletter";

/**
 * `POST /newsletter`: the footer's newsletter form (double opt-in, notify-me.server.ts). A fetcher
 * gets the result as data; a POST without JavaScript goes back to its page with `?newsletter=`.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readFormData(request);
  const { result, status } = await subscribe(request, formData, context);
  if (isNavigation(request)) {
    const outcome: NewsletterOutcome =
      result.status === "error" ? (result.captcha ? "captcha" : "error") : result.status;
    return redirect(`${backTo(request, formData, { newsletter: outcome })}#newsletter`, 303);
  }
  return data(result, { status });
}

/** Nothing to show at this address: a visitor who opens it goes home. */
export function loader() {
  return redirect("/");
}
