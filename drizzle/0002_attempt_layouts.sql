CREATE TABLE `attempt_layouts` (
	`attempt_id` text PRIMARY KEY NOT NULL,
	`layout_json` text NOT NULL,
	FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `attempt_layouts` (`attempt_id`, `layout_json`) SELECT `id`, `layout_json` FROM `attempts`;--> statement-breakpoint
ALTER TABLE `attempts` DROP COLUMN `layout_json`;