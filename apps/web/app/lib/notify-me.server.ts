import { emailSchema } from "@ambercare/contracts/auth";
import { data } from "react-router";
import { z } from "zod";

/**
 * The "notify me" form of the soon pages (/blog, /blog/{page}, /medical-providers). Sign-up for
 * updates is not open yet (the communications issue connects it to the e-mail list): the action
 * checks the address and says so honestly. Nothing is stored, logged or sent.
 */
export type NotifyMeResult = { status: "invalid" } | { status: "notOpenYet" };

const notifyMeForm = z.object({ email: emailSchema });

export async function notifyMeAction(request: Request) {
  const form = await request.formData();
  const parsed = notifyMeForm.safeParse({ email: form.get("email") ?? "" });
  if (!parsed.success) return data<NotifyMeResult>({ status: "invalid" }, { status: 400 });
  return data<NotifyMeResult>({ status: "notOpenYet" });
}
