CREATE TABLE "verifier"."data_keys" (
	"org_id" text PRIMARY KEY NOT NULL,
	"wrapped_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ALTER COLUMN "presentations" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ADD COLUMN "sealed_presentations" text;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ADD COLUMN "sealed_credential_sets" text;