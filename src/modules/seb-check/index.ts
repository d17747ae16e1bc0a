/**
 * The seb-check module's door (docs/house.md, "Modules and their doors"): the Safe Exam
 * Browser check of a candidate's request (Config Key and Browser Exam Key headers or the
 * SEB JavaScript API's values against the exam's registered keys) and an exam's SEB gate
 * read from its row. Apart from the seb module because the session cache and the paper,
 * which the hall's dependencies hold, need it: it depends on nothing of the hall's.
 */
export { checkSebRequest, digestEquals, keyForHash, requestOrigin, sebVerdict } from './verify.js';
export type { RequestHashSeen, SebCheck, SebGate, SebVerdict } from './verify.js';
export { QUIT_ALPHABET, registeredKeys, sebDownloadCode, sebExamSettings, sebGateFor, sebReadShape } from './gate.js';
export type { SebColumns } from './gate.js';
