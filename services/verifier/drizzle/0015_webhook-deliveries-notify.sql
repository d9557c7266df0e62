-- The webhook worker sleeps while no delivery is pending and wakes when one can be: every
-- delivery written (the outbox of the statements that end sessions), and every delivery
-- made pending again (a redelivery), notifies `verifier_webhook_deliveries` when its
-- transaction commits; each replica LISTENs (jobs/background-jobs.ts). Row triggers: a
-- statement that writes no delivery (a session without a webhook) runs nothing here.
CREATE OR REPLACE FUNCTION "verifier"."notify_webhook_deliveries"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('verifier_webhook_deliveries', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_notify_insert" AFTER INSERT ON "verifier"."webhook_deliveries" FOR EACH ROW EXECUTE FUNCTION "verifier"."notify_webhook_deliveries"();
--> statement-breakpoint
CREATE TRIGGER "webhook_deliveries_notify_pending" AFTER UPDATE OF "status" ON "verifier"."webhook_deliveries" FOR EACH ROW WHEN (NEW."status" = 'pending' AND OLD."status" IS DISTINCT FROM 'pending') EXECUTE FUNCTION "verifier"."notify_webhook_deliveries"();
