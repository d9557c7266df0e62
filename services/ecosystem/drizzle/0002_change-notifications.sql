-- Intent resolutions are cached per replica until the data they read changes: every
-- write to these tables notifies `ecosystem_changed` when its transaction commits.
CREATE OR REPLACE FUNCTION "ecosystem"."notify_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ecosystem_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "ecosystems_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ecosystem"."ecosystems" FOR EACH STATEMENT EXECUTE FUNCTION "ecosystem"."notify_change"();
--> statement-breakpoint
CREATE TRIGGER "memberships_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ecosystem"."memberships" FOR EACH STATEMENT EXECUTE FUNCTION "ecosystem"."notify_change"();
--> statement-breakpoint
CREATE TRIGGER "intents_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ecosystem"."intents" FOR EACH STATEMENT EXECUTE FUNCTION "ecosystem"."notify_change"();
--> statement-breakpoint
CREATE TRIGGER "intent_templates_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ecosystem"."intent_templates" FOR EACH STATEMENT EXECUTE FUNCTION "ecosystem"."notify_change"();
--> statement-breakpoint
CREATE TRIGGER "intent_notices_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "ecosystem"."intent_notices" FOR EACH STATEMENT EXECUTE FUNCTION "ecosystem"."notify_change"();
