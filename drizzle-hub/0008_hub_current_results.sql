CREATE TABLE "hub_current_results" (
	"exam_id" text NOT NULL,
	"hall_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"student_id" text NOT NULL,
	"candidate_name" text NOT NULL,
	"status" text NOT NULL,
	"score" real NOT NULL,
	"max_score" real NOT NULL,
	"percentage" real NOT NULL,
	"grade" text NOT NULL,
	"pending_review" boolean NOT NULL,
	"section_scores" jsonb,
	"violations" integer NOT NULL,
	"completed_at" text,
	"hall_claim" jsonb,
	"hall_sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hub_current_results_exam_id_hall_id_attempt_id_pk" PRIMARY KEY("exam_id","hall_id","attempt_id")
);
--> statement-breakpoint
-- the current result of every attempt already held (rows stored before 0004 have three of these fields only in their body)
INSERT INTO "hub_current_results" ("exam_id", "hall_id", "attempt_id", "event_id", "type", "student_id", "candidate_name", "status", "score", "max_score", "percentage", "grade", "pending_review", "section_scores", "violations", "completed_at", "hall_claim", "hall_sent_at")
SELECT DISTINCT ON ("exam_id", "hall_id", "attempt_id") "exam_id", "hall_id", "attempt_id", "event_id", "type", "student_id",
       coalesce("candidate_name", "body" #>> '{attempt,candidateName}', ''), "status", "score", "max_score", "percentage", "grade", "pending_review", "section_scores",
       coalesce("violations", ("body" #>> '{attempt,violations}')::int, 0),
       CASE WHEN "candidate_name" IS NULL THEN "body" #>> '{attempt,completedAt}' ELSE "completed_at" END, "hall_claim", "hall_sent_at"
  FROM "hub_results"
 ORDER BY "exam_id", "hall_id", "attempt_id", "hall_sent_at" DESC, "event_id" DESC
ON CONFLICT DO NOTHING;
