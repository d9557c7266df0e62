CREATE TABLE "verifier"."presentation_results" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"verified_at" timestamp with time zone NOT NULL,
	"presentations" jsonb NOT NULL,
	"credential_sets" jsonb
);
--> statement-breakpoint
CREATE TABLE "verifier"."trust_anchors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"org_id" text NOT NULL,
	"kind" text NOT NULL,
	"label" text,
	"subject" text NOT NULL,
	"not_after" timestamp with time zone,
	"fingerprint" text NOT NULL,
	"certificate_pem" text,
	"did" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "verifier"."presentation_results" ADD CONSTRAINT "presentation_results_session_id_presentation_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "verifier"."presentation_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "trust_anchors_org_fingerprint_key" ON "verifier"."trust_anchors" USING btree ("org_id","fingerprint");--> statement-breakpoint
CREATE INDEX "trust_anchors_org_created_idx" ON "verifier"."trust_anchors" USING btree ("org_id","created_at" DESC NULLS LAST);