ALTER TABLE "password_reset_tokens" ADD COLUMN "purpose" text DEFAULT 'password-reset' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_purpose_known" CHECK ("password_reset_tokens"."purpose" in ('password-reset', 'email-confirmation'));--> statement-breakpoint
-- Accounts made before sign-up needed a confirmed address keep working: they count as confirmed.
UPDATE "users" SET "email_confirmed_at" = "created_at";
