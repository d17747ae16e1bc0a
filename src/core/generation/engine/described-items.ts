/**
 * A list's item named from what the material says of it (issue 39 §2, round 37): under "PROBLEMS OF
 * MEASURING NATIONAL INCOME", "Illiteracy – many producers cannot give correct information about
 * their output" gives the MCQ "Which of the following problems of measuring national income
 * matches this description: “…”?", with the item's name as the key and three other items of the
 * same list as the distractors, the way WAEC/NECO papers ask about a list the syllabus names
 * (docs/decisions.md, "A list's item is named from its description"). Pure: no I/O.
 */
import type { GeneratedQuestion, QuestionDifficulty } from '../schemas.js';
import { contentStems } from '../text/nlp.js';
import { shortId, shuffled } from '../text/seed.js';
import { listMcq, type HeadingList } from './heading-lists.js';
import { explainFrom, joinCitations, mdEscape } from './markdown.js';

/** A planned item: the list, the item described (the key), its description and three other items of the list. */
export interface DescribedItem {
  list: HeadingList;
  key: HeadingList['items'][number];
  description: string;
  distractors: HeadingList['items'];
}

/** Most items asked of one list: the rest of a long list is left for its odd one out and for the other kinds of item. */
const PER_LIST = 3;

/**
 * Plans items from lists of four or more named items. An item is described only when its
 * description shares no content word with any of the four options' names (a shared word gives
 * the key away or points at a distractor); the distractors are
 * three other items of the list. At most three items a list, in a shuffled order; none of a list whose heading names
 * its kind alone.
 */
export function planDescribedItems(lists: HeadingList[], rand: () => number): DescribedItem[] {
  const out: DescribedItem[] = [];
  for (const list of lists) {
    // (a list under a kind alone, "Disadvantages / Problems", takes the last subject a heading named, which may be a narrower
    // one: "disadvantages of sedimentary rocks" on a slide about rocks; the odd one out asks less of the subject)
    if (list.items.length < 4 || list.inherited) continue;
    let made = 0;
    for (const key of shuffled(list.items, rand)) {
      if (made === PER_LIST) break;
      if (!key.description) continue;
      const said = new Set(contentStems(key.description));
      const free = (item: HeadingList['items'][number]) => !contentStems(item.text).some((st) => said.has(st));
      if (!free(key)) continue;
      const distractors = shuffled(list.items.filter((i) => i !== key && free(i)), rand).slice(0, 3);
      if (distractors.length < 3) continue;
      out.push({ list, key, description: key.description, distractors });
      made++;
    }
  }
  return out;
}

/** The MCQ "Which of the following KINDS of SUBJECT matches this description: “…”?", cited and explained. */
export function buildDescribedItem(plan: DescribedItem, difficulty: QuestionDifficulty, rand: () => number, seed: number): GeneratedQuestion {
  const { list, key, description, distractors } = plan;
  const id = shortId('q_', seed, 'MCQ', 'described', list.kind, list.subject, key.text);
  const explanation = explainFrom(`The answer is “${mdEscape(key.text)}”; the others are also ${mdEscape(list.all)}, described otherwise.`, [{ citation: key.citation, text: `${key.text} – ${description}` }]);
  const prompt = `Which of the following ${mdEscape(list.all)} matches this description: “${mdEscape(description)}”?`;
  return listMcq({ id, prompt, difficulty, citation: joinCitations([key.citation, ...distractors.map((d) => d.citation)]), explanation }, key.text, distractors.map((d) => d.text), rand);
}
