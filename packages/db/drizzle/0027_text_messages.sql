CREATE TABLE "text_message_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"phone" text NOT NULL,
	"action" text NOT NULL,
	"wording" text,
	"locale" text,
	"ip" text,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "text_message_consents_action_known" CHECK ("text_message_consents"."action" in ('given', 'withdrawn', 'stopped', 'restarted')),
	CONSTRAINT "text_message_consents_given_has_wording" CHECK ("text_message_consents"."action" <> 'given' or "text_message_consents"."wording" is not null)
);
--> statement-breakpoint
CREATE TABLE "text_message_numbers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"phone" text,
	"confirmed_at" timestamp with time zone,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"code_sent_at" timestamp with time zone,
	"codes_sent" integer DEFAULT 0 NOT NULL,
	"codes_window_started" timestamp with time zone,
	"consented_at" timestamp with time zone,
	"opted_out_at" timestamp with time zone,
	"opted_out_via" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "text_message_numbers_phone_e164" CHECK ("text_message_numbers"."phone" ~ '^\+[1-9][0-9]{6,14}$')
);
--> statement-breakpoint
ALTER TABLE "text_message_consents" ADD CONSTRAINT "text_message_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "text_message_numbers" ADD CONSTRAINT "text_message_numbers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "text_message_consents_user_idx" ON "text_message_consents" USING btree ("user_id","at");--> statement-breakpoint
CREATE INDEX "text_message_numbers_phone_idx" ON "text_message_numbers" USING btree ("phone");