CREATE SCHEMA "ecosystem";
--> statement-breakpoint
CREATE TABLE "ecosystem"."ecosystems" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"tags" jsonb,
	"auto_endorsement" boolean DEFAULT false NOT NULL,
	"logo_url" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_by" text NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."intent_notice_versions" (
	"notice_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"body" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intent_notice_versions_pk" PRIMARY KEY("notice_id","version")
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."intent_notices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"intent_id" uuid NOT NULL,
	"current_version" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intent_notices_intent_uq" UNIQUE("intent_id")
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."intent_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"intent_id" uuid NOT NULL,
	"template_id" text NOT NULL,
	"role" text NOT NULL,
	"description" text,
	"org_id" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_by" text NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."intents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_by" text NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."invitations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"email" text NOT NULL,
	"status" text NOT NULL,
	"user_id" text,
	"ecosystem_id" uuid,
	"invited_org" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_by" text NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."memberships" (
	"id" uuid PRIMARY KEY NOT NULL,
	"ecosystem_id" uuid NOT NULL,
	"org_id" text NOT NULL,
	"role" text NOT NULL,
	"status" text NOT NULL,
	"user_id" text NOT NULL,
	"user_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ecosystem"."organisations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"owner_user_id" text NOT NULL,
	"owner_email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ecosystem"."intent_notice_versions" ADD CONSTRAINT "intent_notice_versions_notice_fk" FOREIGN KEY ("notice_id") REFERENCES "ecosystem"."intent_notices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."intent_notices" ADD CONSTRAINT "intent_notices_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "ecosystem"."intents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."intent_templates" ADD CONSTRAINT "intent_templates_intent_id_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "ecosystem"."intents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."intent_templates" ADD CONSTRAINT "intent_templates_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "ecosystem"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."intents" ADD CONSTRAINT "intents_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "ecosystem"."ecosystems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."invitations" ADD CONSTRAINT "invitations_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "ecosystem"."ecosystems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."invitations" ADD CONSTRAINT "invitations_invited_org_organisations_id_fk" FOREIGN KEY ("invited_org") REFERENCES "ecosystem"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."memberships" ADD CONSTRAINT "memberships_ecosystem_id_ecosystems_id_fk" FOREIGN KEY ("ecosystem_id") REFERENCES "ecosystem"."ecosystems"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ecosystem"."memberships" ADD CONSTRAINT "memberships_org_id_organisations_id_fk" FOREIGN KEY ("org_id") REFERENCES "ecosystem"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ecosystems_name_lower_uq" ON "ecosystem"."ecosystems" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "intent_templates_scope_uq" ON "ecosystem"."intent_templates" USING btree ("intent_id","role",coalesce("org_id", ''));--> statement-breakpoint
CREATE UNIQUE INDEX "intents_ecosystem_name_lower_uq" ON "ecosystem"."intents" USING btree ("ecosystem_id",lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_pending_lead_email_uq" ON "ecosystem"."invitations" USING btree (lower("email")) WHERE "ecosystem"."invitations"."type" = 'ecosystem' and "ecosystem"."invitations"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_member_org_uq" ON "ecosystem"."invitations" USING btree ("ecosystem_id","invited_org") WHERE "ecosystem"."invitations"."type" = 'member';--> statement-breakpoint
CREATE INDEX "invitations_created_by_idx" ON "ecosystem"."invitations" USING btree ("created_by","created_at");--> statement-breakpoint
CREATE INDEX "invitations_invited_org_idx" ON "ecosystem"."invitations" USING btree ("invited_org","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_ecosystem_org_uq" ON "ecosystem"."memberships" USING btree ("ecosystem_id","org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_one_lead_uq" ON "ecosystem"."memberships" USING btree ("ecosystem_id") WHERE "ecosystem"."memberships"."role" = 'Ecosystem Lead';--> statement-breakpoint
CREATE INDEX "memberships_org_idx" ON "ecosystem"."memberships" USING btree ("org_id");