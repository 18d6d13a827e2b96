CREATE TABLE "consultations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "consultations_type_known" CHECK ("consultations"."type" in ('chat', 'video')),
	CONSTRAINT "consultations_status_known" CHECK ("consultations"."status" in ('requested', 'in_progress', 'completed', 'cancelled')),
	CONSTRAINT "consultations_completed_at_set" CHECK (("consultations"."status" = 'completed') = ("consultations"."completed_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "provider_conditions" (
	"provider_id" uuid NOT NULL,
	"condition_id" integer NOT NULL,
	CONSTRAINT "provider_conditions_provider_id_condition_id_pk" PRIMARY KEY("provider_id","condition_id")
);
--> statement-breakpoint
CREATE TABLE "provider_licenses" (
	"provider_id" uuid NOT NULL,
	"state" text NOT NULL,
	CONSTRAINT "provider_licenses_provider_id_state_pk" PRIMARY KEY("provider_id","state"),
	CONSTRAINT "provider_licenses_state_code" CHECK ("provider_licenses"."state" ~ '^[A-Z]{2}$')
);
--> statement-breakpoint
CREATE TABLE "provider_specializations" (
	"provider_id" uuid NOT NULL,
	"specialization_id" integer NOT NULL,
	CONSTRAINT "provider_specializations_provider_id_specialization_id_pk" PRIMARY KEY("provider_id","specialization_id")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"slug" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"credentials" text NOT NULL,
	"photo_path" text,
	"bio_en" text NOT NULL,
	"bio_bg" text NOT NULL,
	"languages" text[] NOT NULL,
	"offers_chat" boolean DEFAULT true NOT NULL,
	"offers_video" boolean DEFAULT true NOT NULL,
	"available_today" boolean DEFAULT false NOT NULL,
	"rating_count" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rating_average" numeric(3, 2) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "providers_slug_unique" UNIQUE("slug"),
	CONSTRAINT "providers_credentials_known" CHECK ("providers"."credentials" in ('MD', 'DO', 'NP', 'PA')),
	CONSTRAINT "providers_offers_a_type" CHECK ("providers"."offers_chat" or "providers"."offers_video"),
	CONSTRAINT "providers_rating_count_non_negative" CHECK ("providers"."rating_count" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"consultation_id" uuid NOT NULL,
	"stars" smallint NOT NULL,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_consultation_id_unique" UNIQUE("consultation_id"),
	CONSTRAINT "ratings_stars_range" CHECK ("ratings"."stars" between 1 and 5),
	CONSTRAINT "ratings_comment_length" CHECK (char_length("ratings"."comment") <= 1000)
);
--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_conditions" ADD CONSTRAINT "provider_conditions_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_conditions" ADD CONSTRAINT "provider_conditions_condition_id_conditions_id_fk" FOREIGN KEY ("condition_id") REFERENCES "public"."conditions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_licenses" ADD CONSTRAINT "provider_licenses_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_specializations" ADD CONSTRAINT "provider_specializations_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_specializations" ADD CONSTRAINT "provider_specializations_specialization_id_specializations_id_fk" FOREIGN KEY ("specialization_id") REFERENCES "public"."specializations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultations_user_id_idx" ON "consultations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "consultations_provider_id_idx" ON "consultations" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "provider_conditions_condition_idx" ON "provider_conditions" USING btree ("condition_id","provider_id");--> statement-breakpoint
CREATE INDEX "provider_licenses_state_idx" ON "provider_licenses" USING btree ("state","provider_id");--> statement-breakpoint
CREATE INDEX "provider_specializations_specialization_idx" ON "provider_specializations" USING btree ("specialization_id","provider_id");--> statement-breakpoint
CREATE INDEX "providers_rating_name_idx" ON "providers" USING btree ("rating_average" DESC NULLS LAST,"last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "providers_name_idx" ON "providers" USING btree ("last_name","first_name","id");--> statement-breakpoint
CREATE INDEX "providers_last_name_lower_idx" ON "providers" USING btree (lower("last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "providers_first_name_lower_idx" ON "providers" USING btree (lower("first_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "providers_full_name_lower_idx" ON "providers" USING btree (lower("first_name" || ' ' || "last_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "ratings_provider_id_idx" ON "ratings" USING btree ("provider_id");--> statement-breakpoint
CREATE INDEX "ratings_user_id_idx" ON "ratings" USING btree ("user_id");