CREATE TABLE "halls" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"public_key" text,
	"enrolment_code_digest" text,
	"enrolment_expires_at" timestamp with time zone,
	"enrolled_at" timestamp with time zone,
	"last_contact_at" timestamp with time zone,
	"clock_offset_ms" bigint,
	"heartbeat" jsonb,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_audit" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "hub_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"actor" text NOT NULL,
	"action" text NOT NULL,
	"hall_id" text,
	"detail" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_examiners" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"key_digest" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hub_examiners_key_digest_unique" UNIQUE("key_digest")
);
--> statement-breakpoint
CREATE TABLE "hub_exams" (
	"id" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"duration_mins" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"settings" jsonb NOT NULL,
	"questions" jsonb NOT NULL,
	"roster" jsonb NOT NULL,
	"version" integer NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_keys" (
	"id" integer PRIMARY KEY NOT NULL,
	"public_key" text NOT NULL,
	"private_key_sealed" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hub_results" (
	"event_id" text PRIMARY KEY NOT NULL,
	"hall_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"type" text NOT NULL,
	"student_id" text NOT NULL,
	"score" real NOT NULL,
	"max_score" real NOT NULL,
	"grade" text NOT NULL,
	"status" text NOT NULL,
	"body" jsonb NOT NULL,
	"hall_sent_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "publications" (
	"package_id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"hall_id" text NOT NULL,
	"version" integer NOT NULL,
	"release_code_sealed" text NOT NULL,
	"envelope" text NOT NULL,
	"sha256" text NOT NULL,
	"expected" integer NOT NULL,
	"downloaded_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"released_by" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "request_nonces" (
	"hall_id" text NOT NULL,
	"nonce" text NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "request_nonces_hall_id_nonce_pk" PRIMARY KEY("hall_id","nonce")
);
--> statement-breakpoint
CREATE INDEX "hub_audit_at_idx" ON "hub_audit" USING btree ("at");--> statement-breakpoint
CREATE INDEX "hub_results_exam_attempt_idx" ON "hub_results" USING btree ("exam_id","hall_id","attempt_id","hall_sent_at","event_id");--> statement-breakpoint
CREATE INDEX "hub_results_hall_idx" ON "hub_results" USING btree ("hall_id");--> statement-breakpoint
CREATE UNIQUE INDEX "publications_exam_hall_version" ON "publications" USING btree ("exam_id","hall_id","version");--> statement-breakpoint
CREATE INDEX "publications_hall_idx" ON "publications" USING btree ("hall_id");--> statement-breakpoint
CREATE INDEX "request_nonces_seen_idx" ON "request_nonces" USING btree ("seen_at");