/**
 * Round 57's mends (docs/decisions.md, "Round 57: a column of notes, the rest of a table's rows,
 * a place, a note in an option, a cue cut at a passage's end"). Its rivers deck's "| River | Notes |"
 * table gave "Which of the following are the notes of Benue?" and "… of Others?", whose options were
 * notes true of the Niger as well (three wrong keys); its waterfalls' "| Waterfall | State |" gave
 * "has “Plateau” as its state"; the jihad notes' "Yakubu (the only non-Fulani flag bearer)" marked
 * its key; and the captions' "the line joining the eye of the observer", cut where the captions
 * were grouped, was keyed True (the fourth wrong key).
 */
import { describe, expect, it } from 'vitest';
import { textToParagraphPassages } from '../../src/core/generation/passage.js';
import { materialTables, planTableItems } from '../../src/core/generation/engine/table-items.js';
import { optionText, reverseStem, rowName } from '../../src/core/generation/engine/table-stems.js';
import { joinCutSentences } from '../../src/core/generation/engine/spoken.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import { timedTextToPassages } from '../../src/uploads/material/captions.js';
import { prng } from '../../src/core/generation/text/seed.js';
import { kindOf } from '../../src/modules/generation/wordnet.js';

const items = (md: string) => Array.from({ length: 12 }, (_, k) => planTableItems(materialTables(textToParagraphPassages(md)), prng(k + 1), md, kindOf)).flat();

describe("a table's column of notes and its row of the rest", () => {
  const rivers = [
    '| River | Notes | Source |',
    '|---|---|---|',
    '| Niger | longest in West Africa, enters Nigeria in Kebbi State | Guinea highlands |',
    '| Benue | main tributary of the Niger | Adamawa highlands |',
    '| Niger + Benue | confluence at Lokoja | two sources |',
    '| Kaduna | joins the Niger at Mureji | Jos Plateau |',
    '| Sokoto-Rima | flows through the north-west | Katsina uplands |',
    '| Others | Ogun, Osun, Cross River, Anambra, Imo | many |',
  ].join('\n');

  it('asks nothing of the notes or of the rest', () => {
    const got = items(rivers);
    expect(got.length).toBeGreaterThan(0);
    for (const it of got) {
      expect(it.stem).not.toMatch(/notes|Others/);
      expect(it.key).not.toMatch(/^Others$/);
    }
  });

  it('reads the rest as no name of one thing, and a mixture as one', () => {
    expect(rowName('Others')).toBeNull();
    expect(rowName('Other rivers')).toBeNull();
    expect(rowName('Iron filings + sand')).toBe('Iron filings + sand');
    expect(rowName('Niger')).toBe('Niger');
  });
});

describe('a place asked of the other way round', () => {
  it('says where the thing is', () => {
    expect(reverseStem('waterfalls', 'Plateau', 'state')).toBe('Which of the following waterfalls is in Plateau State?');
    expect(reverseStem('rivers', 'Ghana', 'country')).toBe('Which of the following rivers is in Ghana?');
    expect(reverseStem('glands', 'base of brain', 'location')).toBe('Which of the following glands has “base of brain” as its location?');
  });
});

describe("a note in brackets in a table's cell", () => {
  it('is no part of the option', () => {
    expect(optionText('Yakubu (the only non-Fulani flag bearer)')).toBe('Yakubu');
    expect(optionText('scrotum (pelvic cavity)')).toBe('scrotum (pelvic cavity)');
    const bearers = ['| Emirate | Flag bearer |', '|---|---|', '| Kano | Sulaimanu |', '| Bauchi | Yakubu (the only non-Fulani flag bearer) |', '| Gombe | Buba Yero |', '| Adamawa | Modibbo Adama |', '| Katsina | Umaru Dallaji |'].join('\n');
    for (const it of items(bearers)) expect([it.key, ...it.distractors].join(' ')).not.toMatch(/non-Fulani/);
  });
});

describe("a caption cue that continues the clause before across a passage's end", () => {
  it('moves back to it', () => {
    const texts = joinCutSentences([
      { text: 'we call it the line of sight\nthe line of sight is the line joining the eye of the observer', startSeconds: 0 },
      { text: 'to the object he is looking at\nthen there is another line', startSeconds: 10 },
    ]);
    expect(texts[0]).toBe('we call it the line of sight\nthe line of sight is the line joining the eye of the observer\nto the object he is looking at');
    expect(texts[1]).toBe('then there is another line');
  });

  it('moves one cue only, and no infinitive', () => {
    const one = joinCutSentences([
      { text: 'okay number six gift\nland can be given as a gift', startSeconds: 0 },
      { text: 'to a friend to a stranger\nor to a church or mosque\nin some places the family can', startSeconds: 10 },
    ]);
    expect(one[0]).toBe('okay number six gift\nland can be given as a gift\nto a friend to a stranger');
    expect(one[1]).toBe('or to a church or mosque\nin some places the family can');
    const infinitive = joinCutSentences([
      { text: 'now mitosis has four stages\nprophase metaphase anaphase and telophase', startSeconds: 0 },
      { text: 'to remember them say\np m a t', startSeconds: 10 },
    ]);
    expect(infinitive[1]).toBe('to remember them say\np m a t');
  });

  it('leaves no cut statement in the lecture', () => {
    // (cues of 10, 10, 7 and 13 words: the grouping closes a passage at 40 words, just after "… of the observer")
    const lines = ['the teacher writes the next number on the board again', 'the teacher writes the next number on the board again', 'the class copies it into their notes', 'the line of sight is the line joining the eye of the observer', 'to the object he is looking at', 'the horizontal line is the line parallel to the ground', 'write it down'];
    const cues = lines.map((text, i) => ({ start: i * 2, end: i * 2 + 1.8, text }));
    const passages = timedTextToPassages(cues, { maxWords: 40 });
    expect(passages[0]!.text.endsWith('of the observer')).toBe(true);
    const statements = indexMaterial(passages).sentences.map((s) => s.text);
    expect(statements).not.toContain('The line of sight is the line joining the eye of the observer.');
  });
});
