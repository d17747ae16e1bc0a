CREATE TABLE "hub_sittings" (
	"exam_id" text NOT NULL,
	"student_id" text NOT NULL,
	"hall_id" text NOT NULL,
	"event_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hub_sittings_exam_id_student_id_pk" PRIMARY KEY("exam_id","student_id")
);
--> statement-breakpoint
DROP INDEX "hub_results_exam_student_idx";--> statement-breakpoint
-- each paper's candidates as already held: the hall of the first stored result claims the sitting
INSERT INTO "hub_sittings" ("exam_id", "student_id", "hall_id", "event_id", "received_at")
SELECT DISTINCT ON ("exam_id", "student_id") "exam_id", "student_id", "hall_id", "event_id", "received_at"
  FROM "hub_results"
 ORDER BY "exam_id", "student_id", "received_at", "event_id";
