CREATE TABLE `seat_allowances` (
	`exam_id` text NOT NULL,
	`address` text NOT NULL,
	`granted` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`exam_id`, `address`),
	FOREIGN KEY (`exam_id`) REFERENCES `exams`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `attempts` ADD `seat_address` text;--> statement-breakpoint
CREATE INDEX `attempts_exam_seat_idx` ON `attempts` (`exam_id`,`seat_address`);--> statement-breakpoint
UPDATE `attempts` SET `seat_address` = `client_address`;