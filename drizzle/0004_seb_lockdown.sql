ALTER TABLE `exams` ADD `require_seb` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `exams` ADD `seb_base_url` text;--> statement-breakpoint
ALTER TABLE `exams` ADD `seb_quit_password` text;--> statement-breakpoint
ALTER TABLE `exams` ADD `seb_quit_hash` text;--> statement-breakpoint
ALTER TABLE `exams` ADD `seb_browser_exam_keys` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `lock_reason` text;