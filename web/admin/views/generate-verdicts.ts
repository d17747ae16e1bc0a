/**
 * The examiner's verdicts on generated questions (issue 39 §2; docs/decisions.md,
 * "Generation verdicts are stored per workspace"): the verdicts recorded when kept
 * questions are imported (keep / edit / discard per item), and the generate tab's line
 * saying how many this workspace has given, with "Export verdicts" (CSV) and "Reset" (with
 * a confirmation, audited).
 */
import { h, replace } from '../dom.js';
import type { Ctx } from '../session.js';
import type { Question } from '../types.js';
import { confirmDialog, toast } from '../ui.js';

const PATH = '/api/cbt/ai/generation-verdicts';

/** One reviewed item: as generated, as it stands, whether the examiner edited it and keeps it. */
export interface ReviewedItem {
  generated: Question;
  q: Question;
  edited: boolean;
  keep: boolean;
}

interface Summary {
  counts: { keep: number; edit: number; discard: number; total: number };
  model: { version: string; judgements: number };
}

/**
 * Records the examiner's verdict on every reviewed item: kept unchanged = keep, kept after an
 * edit = edit (with the edited item), dropped = discard. Resolves false (after a toast)
 * when the hall refused them; the import itself is not undone.
 */
export async function recordVerdicts(ctx: Ctx, engine: string, examId: string, items: ReviewedItem[]): Promise<boolean> {
  const verdicts = items.map((it) => {
    const item = JSON.parse(JSON.stringify(it.generated)) as Record<string, unknown>;
    if (!it.keep) return { verdict: 'discard', item };
    if (!it.edited) return { verdict: 'keep', item };
    const edited = JSON.parse(JSON.stringify(it.q)) as Record<string, unknown>;
    delete edited.quality;
    return { verdict: 'edit', item, edited };
  });
  if (!verdicts.length) return true;
  try {
    const examiner = ctx.workspace.ownerName?.trim();
    await ctx.api.post(PATH, { engine, examId, ...(examiner ? { examiner } : {}), verdicts });
    return true;
  } catch {
    toast('The questions were imported, but your keep/edit/discard choices could not be saved for the quality model.', 'error');
    return false;
  }
}

/** The line under the generate form: this workspace's verdict counts, Export verdicts, Reset. */
export function verdictsBar(ctx: Ctx): HTMLElement {
  const text = h('span', { id: 'gen-verdicts-summary' }, 'Loading your verdicts…');
  const exportBtn = h('button', { type: 'button', class: 'link small', id: 'gen-verdicts-export' }, 'Export verdicts');
  const resetBtn = h('button', { type: 'button', class: 'link small danger', id: 'gen-verdicts-reset' }, 'Reset');
  const bar = h('div', { class: 'muted small', id: 'gen-verdicts' }, text, ' ', exportBtn, ' ', resetBtn);

  const refresh = async () => {
    try {
      const s = await ctx.api.get<Summary>(`${PATH}/summary`);
      const c = s.counts;
      replace(text, c.total
        ? `Your verdicts teach this workspace's quality model: ${c.keep} kept, ${c.edit} edited, ${c.discard} discarded.`
        : 'No verdicts yet: the questions you keep, edit or drop when you import teach this workspace\'s quality model.');
      exportBtn.disabled = resetBtn.disabled = c.total === 0;
    } catch {
      replace(text, 'Your verdicts could not be loaded.');
    }
  };
  exportBtn.addEventListener('click', () => void ctx.api.download(`${PATH}?format=csv`, 'generation-verdicts.csv').catch(() => toast('The export failed.', 'error')));
  resetBtn.addEventListener('click', async () => {
    const ok = await confirmDialog('Reset the verdicts?', h('p', null, 'Every keep/edit/discard verdict of this workspace is deleted and generation goes back to the base quality model. The reset is kept in the audit log.'), 'Reset verdicts');
    if (!ok) return;
    try {
      const { deleted } = await ctx.api.json<{ deleted: number }>('DELETE', `${PATH}?confirm=reset`);
      toast(`${deleted} verdict${deleted === 1 ? '' : 's'} deleted.`);
    } catch {
      toast('The reset failed.', 'error');
    }
    await refresh();
  });
  void refresh();
  return bar;
}
