ALTER TABLE `roster_entries` ADD `extra_time_percent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `roster_entries` ADD `extra_time_mins` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `attempts` ADD `extra_time_percent` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `attempts` ADD `extra_time_mins` integer DEFAULT 0 NOT NULL;