import { emailSchema } from "@ambercare/contracts/auth";
import { contactEntryRequest, deleteMyDataRequest } from "@ambercare/contracts/communications";
import { z } from "zod";

/**
 * The schemas of the communication forms, built from the API's own schemas in packages/contracts
 * so the page and the API agree on every rule. Server-only (zod stays out of the browser).
 */

export const contactForm = z.object({
  name: contactEntryRequest.shape.name,
  email: contactEntryRequest.shape.email,
  topic: contactEntryRequest.shape.topic,
  message: contactEntryRequest.shape.message,
});

/** The support widget: a message, and the e-mail for the reply unless the patient is logged in. */
export const supportForm = z.object({
  message: contactEntryRequest.shape.message,
  email: emailSchema,
});

export const subscribeForm = z.object({ email: emailSchema });

/** Deletion: the password again and the ticked "I understand" box. */
export const deleteForm = z.object({
  password: deleteMyDataRequest.shape.password,
  confirm: z.literal("on"),
});
