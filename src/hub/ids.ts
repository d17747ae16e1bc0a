/**
 * Hub identifiers: opaque, typed by prefix like the hall's (docs/design.md §4): `hall_` halls,
 * `hex_` hub exams, `pkg_` packages, `hexm_` examiners, `bacc_` board accounts. Question and option ids of a hub
 * exam use the hall's own `q_` / `opt_` forms, so a hall keeps them when it imports a
 * released paper and results map back without translation.
 */
import { newId, randomBase62 } from '../platform/ids.js';

export type HubIdPrefix = 'hall' | 'hex' | 'pkg' | 'hexm' | 'bacc';

/** New hub id such as `hall_4hX…` (16 random base62 characters). */
export function newHubId(prefix: HubIdPrefix): string {
  return `${prefix}_${randomBase62(16)}`;
}

/** New question / option id in the hall's forms. */
export const newQuestionId = () => newId('q');
export const newOptionId = () => newId('opt');
