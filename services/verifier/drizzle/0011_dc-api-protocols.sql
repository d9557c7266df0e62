CREATE TABLE "verifier"."reader_certificates" (
	"org_id" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"certificate_chain" jsonb NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "dc_api_protocols" jsonb;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "dc_api_signer_client_ids" jsonb;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "annex_c_encryption_info" text;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "encrypted_annex_c_key" text;