ALTER TABLE `exams` ADD `sections_json` text;--> statement-breakpoint
ALTER TABLE `roster_entries` ADD `subjects_json` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `draw_seed` integer;--> statement-breakpoint
ALTER TABLE `attempts` ADD `section_scores_json` text;