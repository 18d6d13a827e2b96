CREATE TABLE "consultation_status_history" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "consultation_status_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"consultation_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor_user_id" uuid,
	"actor_kind" text NOT NULL,
	"reason" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "consultation_status_history_actor_kind_known" CHECK ("consultation_status_history"."actor_kind" in ('patient', 'clinician', 'system'))
);
--> statement-breakpoint
ALTER TABLE "consultations" DROP CONSTRAINT "consultations_provider_when_assigned";--> statement-breakpoint
ALTER TABLE "consultations" DROP CONSTRAINT "consultations_status_known";--> statement-breakpoint
-- A visit a provider took was called "assigned"; a clinician now "accepts" it.
UPDATE "consultations" SET "status" = 'accepted' WHERE "status" = 'assigned';--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "expired_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "consultations" ADD COLUMN "settlement_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "refunded_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "provider_refund_id" text;--> statement-breakpoint
ALTER TABLE "visit_credits" ADD COLUMN "consultation_id" uuid;--> statement-breakpoint
ALTER TABLE "consultation_status_history" ADD CONSTRAINT "consultation_status_history_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "consultation_status_history" ADD CONSTRAINT "consultation_status_history_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultation_status_history_consultation_id_idx" ON "consultation_status_history" USING btree ("consultation_id","at");--> statement-breakpoint
ALTER TABLE "visit_credits" ADD CONSTRAINT "visit_credits_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "consultations_requested_idx" ON "consultations" USING btree ("created_at") WHERE "consultations"."status" = 'requested';--> statement-breakpoint
CREATE INDEX "consultations_settlement_pending_idx" ON "consultations" USING btree ("id") WHERE "consultations"."settlement_pending";--> statement-breakpoint
CREATE UNIQUE INDEX "visit_credits_consultation_id" ON "visit_credits" USING btree ("consultation_id");--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_expired_at_set" CHECK (("consultations"."status" = 'expired') = ("consultations"."expired_at" is not null));--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_provider_when_accepted" CHECK ("consultations"."status" in ('requested', 'canceled', 'expired') or "consultations"."provider_id" is not null);--> statement-breakpoint
ALTER TABLE "consultations" ADD CONSTRAINT "consultations_status_known" CHECK ("consultations"."status" in ('requested', 'accepted', 'in_progress', 'completed', 'canceled', 'expired'));--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_refund_complete" CHECK (("invoices"."refunded_at" is null) = ("invoices"."refunded_amount_cents" is null));