CREATE TABLE "hub_second_sittings" (
	"event_id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"student_id" text NOT NULL,
	"hall_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"held_hall_id" text NOT NULL,
	"held_event_id" text NOT NULL,
	"body" jsonb NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hub_second_sittings_exam_idx" ON "hub_second_sittings" USING btree ("exam_id","student_id");--> statement-breakpoint
CREATE INDEX "hub_results_exam_student_idx" ON "hub_results" USING btree ("exam_id","student_id");