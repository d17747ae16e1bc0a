/**
 * The questions module's door (docs/house.md, "Modules and their doors"): Questions of an
 * exam: entry, bulk entry, listing in position order, their JSON shape and the whole-paper
 * size check. Other modules import only from here; the composition root mounts the
 * module's routers from its route files.
 */
export { checkWholePaper } from './paper-size.js';
export { insertQuestions, listExamQuestions, serializeQuestion } from './service.js';
