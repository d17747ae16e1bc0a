CREATE TABLE "hub_analyses" (
	"exam_id" text PRIMARY KEY NOT NULL,
	"basis" text NOT NULL,
	"report" jsonb NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
