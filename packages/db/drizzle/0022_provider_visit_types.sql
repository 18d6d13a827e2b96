-- The kinds of visit a provider offers, as data (ADR 056): visit_types holds ids of the list in
-- packages/contracts/src/visit-types.ts, in place of one boolean column per kind. Every provider
-- keeps what it offered; the check and the index move to the new column.
ALTER TABLE "providers" ADD COLUMN "visit_types" text[] DEFAULT array['chat', 'video']::text[] NOT NULL;--> statement-breakpoint
UPDATE "providers" SET "visit_types" = array_remove(array[case when "offers_chat" then 'chat' end, case when "offers_video" then 'video' end]::text[], null);--> statement-breakpoint
ALTER TABLE "providers" DROP CONSTRAINT "providers_offers_a_type";--> statement-breakpoint
DROP INDEX "providers_availability_idx";--> statement-breakpoint
ALTER TABLE "providers" DROP COLUMN "offers_chat";--> statement-breakpoint
ALTER TABLE "providers" DROP COLUMN "offers_video";--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_offers_a_type" CHECK (cardinality("providers"."visit_types") > 0 and "providers"."visit_types" <@ array['chat', 'video']::text[]);--> statement-breakpoint
CREATE INDEX "providers_availability_idx" ON "providers" USING btree ("available_today","visit_types");
