/**
 * The generation module's door (docs/house.md, "Modules and their doors"): Questions
 * generated offline from documents, slides, audio and video, and the essay
 * recommendations: the engine job module, the WordNet lexicon and the service (the essay
 * review screen asks it for calibrated recommendations). Other modules import only from
 * here; the composition root mounts the module's routers from its route files.
 */
export { GENERATION_JOB_MODULE } from './engine-jobs.js';
export { closeWordNet, kindOf, relatedWords } from './wordnet.js';
export { createGenerationService, type GenerationService } from './service.js';
