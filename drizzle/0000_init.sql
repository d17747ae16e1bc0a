CREATE TABLE `workspaces` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`type` text NOT NULL,
	`owner_name` text NOT NULL,
	`owner_email` text NOT NULL,
	`email_key` text NOT NULL,
	`password_hash` text,
	`credits` integer NOT NULL,
	`api_key_digest` text NOT NULL,
	`api_key_sealed` text NOT NULL,
	`webhook_secret_sealed` text NOT NULL,
	`webhook_url` text,
	`school_id` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_email_key_uq` ON `workspaces` (`email_key`);--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_api_key_digest_uq` ON `workspaces` (`api_key_digest`);--> statement-breakpoint
CREATE UNIQUE INDEX `workspaces_school_id_uq` ON `workspaces` (`school_id`);--> statement-breakpoint
CREATE INDEX `workspaces_created_idx` ON `workspaces` (`created_at`);--> statement-breakpoint
CREATE TABLE `exams` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`title` text NOT NULL,
	`access_code` text NOT NULL,
	`duration_mins` integer NOT NULL,
	`starts_at` integer,
	`ends_at` integer,
	`max_tab_violations` integer NOT NULL,
	`shuffle_questions` integer NOT NULL,
	`shuffle_choices` integer NOT NULL,
	`show_result_after` integer NOT NULL,
	`is_published` integer NOT NULL,
	`paused_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exams_access_code_uq` ON `exams` (`access_code`);--> statement-breakpoint
CREATE INDEX `exams_workspace_idx` ON `exams` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `questions` (
	`id` text PRIMARY KEY NOT NULL,
	`exam_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`position` integer NOT NULL,
	`type` text NOT NULL,
	`prompt` text NOT NULL,
	`marks` real NOT NULL,
	`options_json` text NOT NULL,
	`explanation` text,
	`section` text,
	`min_words` integer,
	`max_words` integer,
	`model_answer` text,
	`rubric_json` text,
	`difficulty` text,
	`citation` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`exam_id`) REFERENCES `exams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `questions_exam_idx` ON `questions` (`exam_id`,`position`);--> statement-breakpoint
CREATE INDEX `questions_workspace_idx` ON `questions` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `roster_entries` (
	`id` text PRIMARY KEY NOT NULL,
	`exam_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`student_id` text NOT NULL,
	`candidate_name` text NOT NULL,
	`phone` text,
	`pin_sealed` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`exam_id`) REFERENCES `exams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `roster_exam_student_uq` ON `roster_entries` (`exam_id`,`student_id`);--> statement-breakpoint
CREATE TABLE `answers` (
	`attempt_id` text NOT NULL,
	`question_id` text NOT NULL,
	`option_id` text,
	`text` text,
	`seq` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`awarded_marks` real,
	`review_json` text,
	PRIMARY KEY(`attempt_id`, `question_id`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TABLE `attempts` (
	`id` text PRIMARY KEY NOT NULL,
	`exam_id` text NOT NULL,
	`workspace_id` text NOT NULL,
	`student_id` text NOT NULL,
	`candidate_name` text NOT NULL,
	`pin_hash` text,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`credited_ms` integer DEFAULT 0 NOT NULL,
	`extra_seconds` integer DEFAULT 0 NOT NULL,
	`violations` integer DEFAULT 0 NOT NULL,
	`layout_json` text NOT NULL,
	`score` real,
	`max_score` real,
	`percentage` real,
	`grade` text,
	`pending_review` integer DEFAULT false NOT NULL,
	`auto_submitted` integer DEFAULT false NOT NULL,
	`completed_at` integer,
	`disqualified_at` integer,
	`client_address` text,
	`last_seen_at` integer,
	`last_saved_at` integer,
	FOREIGN KEY (`exam_id`) REFERENCES `exams`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attempts_exam_student_uq` ON `attempts` (`exam_id`,`student_id`);--> statement-breakpoint
CREATE INDEX `attempts_status_idx` ON `attempts` (`status`);--> statement-breakpoint
CREATE INDEX `attempts_workspace_idx` ON `attempts` (`workspace_id`);--> statement-breakpoint
CREATE TABLE `telemetry_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`attempt_id` text NOT NULL,
	`type` text NOT NULL,
	`action` text,
	`counted` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `telemetry_attempt_idx` ON `telemetry_events` (`attempt_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text NOT NULL,
	`reason` text,
	`detail_json` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_workspace_idx` ON `audit_log` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `outbox_events` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`type` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`last_status_code` integer,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `outbox_due_idx` ON `outbox_events` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `outbox_workspace_idx` ON `outbox_events` (`workspace_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `system_state` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
