CREATE TABLE `generation_verdicts` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`exam_id` text,
	`examiner` text,
	`engine` text NOT NULL,
	`verdict` text NOT NULL,
	`item_json` text NOT NULL,
	`features_json` text NOT NULL,
	`edited_json` text,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `generation_verdicts_workspace_idx` ON `generation_verdicts` (`workspace_id`,`created_at`);