/**
 * The answer store (docs/design.md §7): the live answer buffer that acknowledges a save
 * from memory and hands out its durable watermark (answer-buffer.ts), its sequence
 * bookkeeping (answer-seq.ts), its flush policy (answer-flush.ts), the SQL of one flush
 * (answer-commit.ts) and who commits the flush jobs — a worker thread with its own SQLite
 * connection, or the server's connection (answer-writer.ts; the thread's entry file,
 * answer-writer-thread.ts, is loaded by URL, not through this door), and the rule of an
 * answer that counts as answered (answer-seq.ts `countsAsAnswered`). It knows only the
 * database and the platform; the hall's dependencies hold the buffer (src/hall/deps.ts).
 * This file is the module's only door for other code (test/architecture/house.test.ts).
 */
export { AnswerBuffer } from './answer-buffer.js';
export { threadWriter } from './answer-writer.js';
export { commitAll, type JobValue } from './answer-commit.js';
export { countsAsAnswered } from './answer-seq.js';
