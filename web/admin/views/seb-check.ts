/**
 * The monitor's Safe Exam Browser cell (issue #34 finding 6): the two checks of a seat's
 * last judged request, separately — "Config ✓" says only that the client has the exam's
 * configuration (anyone with the .seb file can compute its key); "BEK ✓" that it runs an
 * SEB version the centre registered; "BEK not checked" when the exam registers none.
 * "(page)" marks a Config value from SEB's JavaScript API, one value per page URL.
 */
import type { SebCheck } from '../types.js';

/** Tooltip of the cell. */
export const SEB_CELL_TITLE = 'Config: the seat has this exam’s SEB configuration (not proof of SEB: the key can be computed from the .seb file). BEK: the seat runs an SEB version registered for this exam.';

const CONFIG: Record<SebCheck['configKey'], string> = { ok: 'Config ✓', missing: 'Config ✗ none', mismatch: 'Config ✗ wrong' };
const BEK: Record<SebCheck['browserExamKey'], string> = { ok: 'BEK ✓', missing: 'BEK ✗ none', mismatch: 'BEK ✗ unregistered', 'not-checked': 'BEK not checked' };

/**
 * Text of the cell, e.g. "Config ✓ · BEK not checked".
 * @param check the seat's checks (null: not judged yet)
 * @param valid the seat's overall result, used when no check is recorded
 */
export function sebCheckText(check: SebCheck | null, valid: boolean | null): string {
  if (!check) return valid === false ? '✗ failed' : '—';
  return `${CONFIG[check.configKey]}${check.evidence === 'page' ? ' (page)' : ''} · ${BEK[check.browserExamKey]}`;
}
