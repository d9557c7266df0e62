CREATE SCHEMA "verifier";
--> statement-breakpoint
CREATE TABLE "verifier"."platform_settings" (
	"name" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifier"."presentation_sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"verifier_ref" uuid NOT NULL,
	"public_verifier_id" text NOT NULL,
	"template_id" uuid,
	"intent_id" text,
	"ecosystem_id" text,
	"authorization_request_id" text NOT NULL,
	"authorization_request_uri" text,
	"request_uri" text,
	"response_uri" text,
	"client_id" text NOT NULL,
	"signer_method" text NOT NULL,
	"client_id_prefix" text NOT NULL,
	"signing_chain" jsonb,
	"nonce" text NOT NULL,
	"payload_state" text NOT NULL,
	"response_mode" text NOT NULL,
	"expected_origins" jsonb,
	"dcql_query" jsonb NOT NULL,
	"transaction_data" jsonb,
	"redirect_uri" text,
	"client_metadata" jsonb NOT NULL,
	"encryption_public_jwk" jsonb,
	"encrypted_encryption_key" text,
	"state" text NOT NULL,
	"error_code" text,
	"error_message" text,
	"request_retrieved_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifier"."signing_keys" (
	"org_id" text NOT NULL,
	"key_type" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"encrypted_private_key" text NOT NULL,
	"certificate_chain" jsonb,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "signing_keys_org_id_key_type_pk" PRIMARY KEY("org_id","key_type")
);
--> statement-breakpoint
CREATE TABLE "verifier"."verification_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"name" text NOT NULL,
	"template_json" jsonb NOT NULL,
	"signer_option" text NOT NULL,
	"client_id_prefix" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifier"."verifiers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"verifier_id" text NOT NULL,
	"client_metadata" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_authorization_request_id_key" ON "verifier"."presentation_sessions" USING btree ("authorization_request_id");--> statement-breakpoint
CREATE INDEX "sessions_org_created_idx" ON "verifier"."presentation_sessions" USING btree ("org_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sessions_open_verifier_idx" ON "verifier"."presentation_sessions" USING btree ("verifier_ref") WHERE state in ('RequestCreated', 'RequestUriRetrieved');--> statement-breakpoint
CREATE INDEX "sessions_open_template_idx" ON "verifier"."presentation_sessions" USING btree ("template_id") WHERE state in ('RequestCreated', 'RequestUriRetrieved');--> statement-breakpoint
CREATE INDEX "templates_org_created_idx" ON "verifier"."verification_templates" USING btree ("org_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "verifiers_org_verifier_id_key" ON "verifier"."verifiers" USING btree ("org_id","verifier_id");--> statement-breakpoint
CREATE INDEX "verifiers_org_created_idx" ON "verifier"."verifiers" USING btree ("org_id","created_at" DESC NULLS LAST);