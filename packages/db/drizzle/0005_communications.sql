CREATE TABLE "account_closures" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "captcha_solutions" (
	"solution_hash" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"name" text,
	"email" text,
	"topic" text NOT NULL,
	"message" text,
	"segment" text NOT NULL,
	"source" text NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"anonymised_at" timestamp with time zone,
	CONSTRAINT "contact_entries_source_known" CHECK ("contact_entries"."source" in ('contact_form', 'widget')),
	CONSTRAINT "contact_entries_message_length" CHECK (char_length("contact_entries"."message") <= 5000),
	CONSTRAINT "contact_entries_anonymised_or_complete" CHECK ("contact_entries"."anonymised_at" is not null or ("contact_entries"."name" is not null and "contact_entries"."email" is not null and "contact_entries"."message" is not null))
);
--> statement-breakpoint
CREATE TABLE "data_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"granted" boolean NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "data_consents_key_known" CHECK ("data_consents"."key" in ('optional_processing'))
);
--> statement-breakpoint
CREATE TABLE "mailing_list_members" (
	"list" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"locale" text DEFAULT 'en' NOT NULL,
	"confirm_token_hash" text,
	"confirm_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"unsubscribed_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mailing_list_members_list_email_pk" PRIMARY KEY("list","email"),
	CONSTRAINT "mailing_list_members_confirm_token_hash_unique" UNIQUE("confirm_token_hash"),
	CONSTRAINT "mailing_list_members_status_known" CHECK ("mailing_list_members"."status" in ('pending', 'subscribed', 'unsubscribed')),
	CONSTRAINT "mailing_list_members_email_lower_case" CHECK ("mailing_list_members"."email" = lower("mailing_list_members"."email"))
);
--> statement-breakpoint
ALTER TABLE "account_closures" ADD CONSTRAINT "account_closures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_entries" ADD CONSTRAINT "contact_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_consents" ADD CONSTRAINT "data_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "captcha_solutions_expires_at_idx" ON "captcha_solutions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "contact_entries_user_id_created_idx" ON "contact_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "contact_entries_email_idx" ON "contact_entries" USING btree ("email");--> statement-breakpoint
CREATE INDEX "data_consents_user_key_idx" ON "data_consents" USING btree ("user_id","key","recorded_at");