CREATE TABLE "verifier"."pending_signing_keys" (
	"key_id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"key_type" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"encrypted_private_key" text NOT NULL,
	"request" jsonb NOT NULL,
	"csr_pem" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "verifier"."registration_certificates" (
	"verifier_ref" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"jwt" text NOT NULL,
	"summary" jsonb NOT NULL,
	"relying_party_identifier" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"expiry_warned_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "verifier_info" jsonb;--> statement-breakpoint
ALTER TABLE "verifier"."presentation_sessions" ADD COLUMN "over_asking" jsonb;--> statement-breakpoint
ALTER TABLE "verifier"."trust_anchors" ADD COLUMN "purpose" text DEFAULT 'issuer' NOT NULL;--> statement-breakpoint
ALTER TABLE "verifier"."verification_templates" ADD COLUMN "verifier_ref" uuid;--> statement-breakpoint
ALTER TABLE "verifier"."verifiers" ADD COLUMN "over_asking_policy" text DEFAULT 'refuse' NOT NULL;--> statement-breakpoint
ALTER TABLE "verifier"."verifiers" ADD COLUMN "strict_haip" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "verifier"."registration_certificates" ADD CONSTRAINT "registration_certificates_verifier_ref_verifiers_id_fk" FOREIGN KEY ("verifier_ref") REFERENCES "verifier"."verifiers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pending_signing_keys_org_key_type_key" ON "verifier"."pending_signing_keys" USING btree ("org_id","key_type");--> statement-breakpoint
CREATE INDEX "registration_certificates_not_after_idx" ON "verifier"."registration_certificates" USING btree ("not_after");--> statement-breakpoint
ALTER TABLE "verifier"."verification_templates" ADD CONSTRAINT "verification_templates_verifier_ref_verifiers_id_fk" FOREIGN KEY ("verifier_ref") REFERENCES "verifier"."verifiers"("id") ON DELETE set null ON UPDATE no action;