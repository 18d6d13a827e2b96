CREATE TABLE "provider_photos" (
	"hash" text PRIMARY KEY NOT NULL,
	"content_type" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_photos_hash_hex" CHECK ("provider_photos"."hash" ~ '^[0-9a-f]{32}$'),
	CONSTRAINT "provider_photos_content_type_image" CHECK ("provider_photos"."content_type" = 'image/jpeg'),
	CONSTRAINT "provider_photos_bytes_bounded" CHECK (octet_length("provider_photos"."bytes") between 1 and 2097152)
);
