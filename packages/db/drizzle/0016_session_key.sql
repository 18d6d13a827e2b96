-- The browser session a token belongs to (both APIs' tokens of one web session share it), so that
-- ending "every other session" keeps the caller's two tokens. Existing tokens stay their own session.
ALTER TABLE "access_tokens" ADD COLUMN "session_key" text;
