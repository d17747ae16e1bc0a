CREATE TABLE "board_accounts" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"email_key" text NOT NULL,
	"name" text NOT NULL,
	"roles" jsonb NOT NULL,
	"password_hash" text NOT NULL,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "board_accounts_email_key_unique" UNIQUE("email_key")
);
--> statement-breakpoint
CREATE TABLE "board_sessions" (
	"token_digest" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "board_sessions_account_idx" ON "board_sessions" USING btree ("account_id");