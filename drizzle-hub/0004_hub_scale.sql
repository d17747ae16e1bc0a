CREATE TABLE "hub_hall_results" (
	"hall_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"attempts" integer NOT NULL,
	CONSTRAINT "hub_hall_results_hall_id_exam_id_pk" PRIMARY KEY("hall_id","exam_id")
);
--> statement-breakpoint
DROP INDEX "hub_results_hall_idx";--> statement-breakpoint
ALTER TABLE "hub_results" ADD COLUMN "candidate_name" text;--> statement-breakpoint
ALTER TABLE "hub_results" ADD COLUMN "violations" integer;--> statement-breakpoint
ALTER TABLE "hub_results" ADD COLUMN "completed_at" text;--> statement-breakpoint
-- the halls view's counts for results stored before this migration (result-ingest.ts keeps them from now on):
-- each attempt counted once, under the exam of its first event
INSERT INTO "hub_hall_results" ("hall_id", "exam_id", "attempts")
SELECT "hall_id", "exam_id", count(*)::int FROM (
  SELECT DISTINCT ON ("hall_id", "attempt_id") "hall_id", "exam_id" FROM "hub_results" ORDER BY "hall_id", "attempt_id", "received_at", "event_id"
) first_events GROUP BY "hall_id", "exam_id";
