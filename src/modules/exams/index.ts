/**
 * The exams module's door (docs/house.md, "Modules and their doors"): Exams: their
 * settings, lifecycle and lookup within a workspace, and the one writer of question rows
 * (question-store.ts), since an exam owns its questions. Other modules import only from
 * here; the composition root mounts the module's routers from its route files.
 */
export { insertQuestion } from './question-store.js';
export { createExam, getExamInWorkspace, serializeExam } from './service.js';
