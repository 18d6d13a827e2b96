DROP INDEX "providers_rating_name_idx";--> statement-breakpoint
CREATE INDEX "providers_rating_order_idx" ON "providers" USING btree ("rating_average" DESC NULLS LAST,"rating_count" DESC NULLS LAST,"last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "providers_availability_idx" ON "providers" USING btree ("available_today","offers_video","offers_chat");