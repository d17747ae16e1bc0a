CREATE TABLE `attempt_flags` (
	`attempt_id` text NOT NULL,
	`question_id` text NOT NULL,
	`flagged_at` integer NOT NULL,
	PRIMARY KEY(`attempt_id`, `question_id`),
	FOREIGN KEY (`attempt_id`) REFERENCES `attempts`(`id`) ON UPDATE no action ON DELETE cascade
);
