CREATE TABLE "hub_rate_limits" (
	"key" varchar(255) PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"expire" bigint
);
--> statement-breakpoint
ALTER TABLE "hub_results" ADD COLUMN "percentage" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "hub_results" ADD COLUMN "pending_review" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "hub_results" ADD COLUMN "marks" jsonb;--> statement-breakpoint
ALTER TABLE "hub_results" ADD COLUMN "hall_claim" jsonb;--> statement-breakpoint
CREATE INDEX "hub_results_hall_attempt_idx" ON "hub_results" USING btree ("hall_id","attempt_id");--> statement-breakpoint
-- rows stored before the hub graded keep the hall's figures (as they were shown until now)
UPDATE "hub_results" SET "percentage" = COALESCE(("body"->'attempt'->>'percentage')::real, 0), "pending_review" = COALESCE(("body"->'attempt'->>'pendingReview')::boolean, false);
