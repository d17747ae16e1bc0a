/** All tables, re-exported for drizzle and drizzle-kit. */
export * from './workspaces.js';
export * from './exams.js';
export * from './attempts.js';
export * from './system.js';
export * from './hub.js';
export * from './generation.js';
