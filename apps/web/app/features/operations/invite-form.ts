/** The fields of the team page's invitation form, in its order (its error summary's). */
export type InviteField = "email" | "provider_slug" | "locale";
export const INVITE_FIELDS: readonly InviteField[] = ["email", "provider_slug", "locale"];
