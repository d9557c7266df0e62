CREATE TABLE "ecosystem"."trusted_entities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"name" text NOT NULL,
	"role" text NOT NULL,
	"org_id" text,
	"information_uri" text,
	"allowed_credential_types" jsonb NOT NULL,
	"status" text NOT NULL,
	"status_reason" text,
	"status_changed_at" timestamp with time zone NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."trusted_entity_certificates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"entity_id" uuid NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"pem" text NOT NULL,
	"fingerprint" text NOT NULL,
	"subject" text NOT NULL,
	"ski" text,
	"aki" text,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	"added_by" text NOT NULL,
	"retired_at" timestamp with time zone,
	"retired_by" text
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."trusted_entity_history" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"entity_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"change" text NOT NULL,
	"from" jsonb,
	"to" jsonb,
	"reason" text,
	"actor" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ecosystem"."ecosystems" ADD COLUMN "trust_list_sequence" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ecosystem"."ecosystems" ADD COLUMN "trust_list_sequence_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "ecosystem"."ecosystems" ADD COLUMN "trust_policy" text DEFAULT 'organisation' NOT NULL;--> statement-breakpoint
ALTER TABLE "ecosystem"."ecosystems" ADD COLUMN "trust_list_public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "ecosystem"."trusted_entities" ADD CONSTRAINT "trusted_entities_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "ecosystem"."ecosystems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."trusted_entities" ADD CONSTRAINT "trusted_entities_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "ecosystem"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."trusted_entity_certificates" ADD CONSTRAINT "trusted_entity_certificates_entity_id_trusted_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "ecosystem"."trusted_entities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."trusted_entity_certificates" ADD CONSTRAINT "trusted_entity_certificates_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "ecosystem"."ecosystems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."trusted_entity_history" ADD CONSTRAINT "trusted_entity_history_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "ecosystem"."ecosystems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."trusted_entity_history" ADD CONSTRAINT "trusted_entity_history_entity_id_trusted_entities_id_fk" FOREIGN KEY ("entity_id") REFERENCES "ecosystem"."trusted_entities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trusted_entities_ecosystem_created_idx" ON "ecosystem"."trusted_entities" USING btree ("ecosystem_id","created_at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "trusted_entity_certificates_current_uq" ON "ecosystem"."trusted_entity_certificates" USING btree ("entity_id","fingerprint") WHERE "ecosystem"."trusted_entity_certificates"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "trusted_entity_certificates_ecosystem_fingerprint_idx" ON "ecosystem"."trusted_entity_certificates" USING btree ("ecosystem_id","fingerprint") WHERE "ecosystem"."trusted_entity_certificates"."retired_at" is null;--> statement-breakpoint
CREATE INDEX "trusted_entity_certificates_entity_idx" ON "ecosystem"."trusted_entity_certificates" USING btree ("entity_id","added_at");--> statement-breakpoint
CREATE UNIQUE INDEX "trusted_entity_history_ecosystem_sequence_uq" ON "ecosystem"."trusted_entity_history" USING btree ("ecosystem_id","sequence");--> statement-breakpoint
CREATE INDEX "trusted_entity_history_entity_idx" ON "ecosystem"."trusted_entity_history" USING btree ("entity_id","sequence");--> statement-breakpoint
-- The registry's history is append-only: a change is recorded once and never rewritten.
CREATE OR REPLACE FUNCTION "ecosystem"."refuse_history_rewrite"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'trusted_entity_history is append-only (% refused)', TG_OP USING ERRCODE = 'restrict_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "trusted_entity_history_append_only" BEFORE UPDATE OR DELETE ON "ecosystem"."trusted_entity_history" FOR EACH ROW EXECUTE FUNCTION "ecosystem"."refuse_history_rewrite"();
--> statement-breakpoint
CREATE TRIGGER "trusted_entity_history_no_truncate" BEFORE TRUNCATE ON "ecosystem"."trusted_entity_history" FOR EACH STATEMENT EXECUTE FUNCTION "ecosystem"."refuse_history_rewrite"();
