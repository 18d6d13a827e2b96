/**
 * The statuses in which a visit's workspace shows its chat: it takes messages from acceptance on,
 * and after completion for follow-up questions (the API decides until when).
 */
export const CHAT_STATUSES: readonly string[] = ["accepted", "in_progress", "completed"];
