ALTER TABLE "provider_licenses" ADD COLUMN "expires_on" date;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "unlisted_at" timestamp with time zone;