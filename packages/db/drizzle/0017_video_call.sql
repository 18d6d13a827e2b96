CREATE TABLE "visit_call_events" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "visit_call_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"consultation_id" uuid NOT NULL,
	"user_id" uuid,
	"side" text NOT NULL,
	"event" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "visit_call_events_side_known" CHECK ("visit_call_events"."side" in ('patient', 'clinician')),
	CONSTRAINT "visit_call_events_event_known" CHECK ("visit_call_events"."event" in ('join', 'leave', 'reconnect'))
);
--> statement-breakpoint
ALTER TABLE "visit_call_events" ADD CONSTRAINT "visit_call_events_consultation_id_consultations_id_fk" FOREIGN KEY ("consultation_id") REFERENCES "public"."consultations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_call_events" ADD CONSTRAINT "visit_call_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visit_call_events_consultation_id_idx" ON "visit_call_events" USING btree ("consultation_id","at");