CREATE TABLE `hub_links` (
	`workspace_id` text PRIMARY KEY NOT NULL,
	`hub_url` text NOT NULL,
	`hall_id` text NOT NULL,
	`hub_public_key` text NOT NULL,
	`public_key` text NOT NULL,
	`private_key_sealed` text NOT NULL,
	`enrolled_at` integer NOT NULL,
	`last_sync_at` integer,
	`last_error` text
);
--> statement-breakpoint
CREATE TABLE `hub_outbox` (
	`event_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`tries` integer DEFAULT 0 NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `hub_outbox_due_idx` ON `hub_outbox` (`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `hub_packages` (
	`package_id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`hub_exam_id` text NOT NULL,
	`version` integer NOT NULL,
	`title` text NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer,
	`duration_mins` integer NOT NULL,
	`envelope` text,
	`state` text NOT NULL,
	`source` text NOT NULL,
	`received_at` integer NOT NULL,
	`released_at` integer,
	`released_by` text,
	`exam_id` text,
	`failed_codes` integer DEFAULT 0 NOT NULL,
	`last_failed_at` integer
);
--> statement-breakpoint
CREATE INDEX `hub_packages_exam_idx` ON `hub_packages` (`exam_id`);--> statement-breakpoint
CREATE INDEX `hub_packages_ws_idx` ON `hub_packages` (`workspace_id`);