CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"actor_user_id" uuid,
	"actor_kind" text NOT NULL,
	"action" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_id" uuid,
	"ip" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_log_actor_kind_known" CHECK ("audit_log"."actor_kind" in ('patient', 'provider', 'system'))
);
--> statement-breakpoint
CREATE TABLE "consultation_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"consultation_id" uuid NOT NULL,
	"author" text NOT NULL,
	"author_user_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "consultation_messages_author_known" CHECK ("consultation_messages"."author" in ('patient', 'provider', 'system')),
	CONSTRAINT "consultation_messages_body_length" CHECK (char_length("consultation_messages"."body") between 1 and 4000)
);
--> statement-breakpoint
CREATE TABLE "medical_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medical_documents_storage_key_unique" UNIQUE("storage_key"),
	CONSTRAINT "medical_documents_content_type_known" CHECK ("medical_documents"."content_type" in ('application/pdf', 'image/jpeg', 'image/png')),
	CONSTRAINT "medical_documents_size_range" CHECK ("medical_documents"."size_bytes" between 1 and 10485760)
);
--> statement-breakpoint
ALTER TABLE "consultations" DROP CONSTRAINT "consultations_status_known";--> statement-breakpoint
DROP INDEX "consultations_user_id_idx";--> statement-breakpoint
ALTER TABLE "consultations" ALTER COLUMN "provider_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "state" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "intake" jsonb;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "idempotency_key" uuid;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "paid_with" text DEFAULT 'membership' NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "consents_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "visit_summary" text;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "canceled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_messages" ADD CONSTRAINT "consultation_messages_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_messages" ADD CONSTRAINT "consultation_messages_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medical_documents" ADD CONSTRAINT "medical_documents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_user_at_idx" ON "audit_log" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "consultation_messages_consultation_idx" ON "consultation_messages" USING btree ("consultation_id","created_at");--> statement-breakpoint
CREATE INDEX "medical_documents_user_id_idx" ON "medical_documents" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "consultations_user_idempotency_key" ON "consultations" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "consultations_user_id_idx" ON "consultations" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_paid_with_known" CHECK ("consultations"."paid_with" in ('membership', 'visit_credit'));--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_canceled_at_set" CHECK (("consultations"."status" = 'canceled') = ("consultations"."canceled_at" is not null));--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_provider_when_assigned" CHECK ("consultations"."status" in ('requested', 'canceled') or "consultations"."provider_id" is not null);--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_state_code" CHECK ("consultations"."state" ~ '^[A-Z]{2}$');--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_status_known" CHECK ("consultations"."status" in ('requested', 'assigned', 'in_progress', 'completed', 'canceled'));