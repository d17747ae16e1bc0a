/**
 * The imports module's door (docs/house.md, "Modules and their doors"): Question, roster
 * and result files in and out (Excel, CSV, Aiken, GIFT, Moodle XML, pasted papers), and
 * the one place the hall reads its results as the domain's records. Other modules import
 * only from here; the composition root mounts the module's routers from its route files.
 */
export { examAnswerRecords, examAttemptRecords, examWithQuestions } from './exam-data.js';
