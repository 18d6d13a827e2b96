ALTER TABLE "consultation_status_history" ADD COLUMN "cause" text;--> statement-breakpoint
ALTER TABLE "consultation_status_history" ADD CONSTRAINT "consultation_status_history_cause_known" CHECK ("consultation_status_history"."cause" is null or "consultation_status_history"."cause" in ('clinician_never_started', 'licence_lapsed'));--> statement-breakpoint
-- hand-written: the causes of the changes made before the column, from their reasons' fixed text.
UPDATE "consultation_status_history" SET "cause" = 'clinician_never_started' WHERE "actor_kind" = 'system' AND "to_status" = 'canceled' AND "reason" = 'The clinician did not start the visit in time';--> statement-breakpoint
UPDATE "consultation_status_history" SET "cause" = 'licence_lapsed' WHERE "actor_kind" = 'system' AND "to_status" = 'canceled' AND "reason" = 'The clinician''s licence in the patient''s state lapsed before the visit';
