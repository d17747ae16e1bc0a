/**
 * Issue 39 §2: faults round 9's judge named (docs/quality-generation-ratings.md, "Round 9"),
 * refused where they are made. Hand-written material (none from a hold-out set):
 * - a sentence that only announces a list ("… can be classified in different ways.") tests
 *   nothing;
 * - a bullet whose subject needs its "of what" ("Leaders may be bribed …": leaders of what?);
 * - a slide's "Features: …", "Uses: …" lines are labels, not definitions ("Features are layered …").
 */
import { describe, expect, it } from 'vitest';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';

describe('statements that say nothing or do not say what they are about', () => {
  it('refuses a sentence that only announces a list, keeps one that gives it', () => {
    expect(rejectReason('Trade unions can be classified in different ways.', false)).toBe('announces a list');
    expect(rejectReason('Nigerian soils may be grouped into three main groups.', false)).toBe('announces a list');
    expect(rejectReason('Trade unions can be classified into craft unions and industrial unions.', false)).toBeNull();
  });

  it('refuses a bullet whose subject needs its "of what", keeps one that names it', () => {
    expect(rejectReason('Leaders may be bribed by government and betray the interest of members.', false)).toBe('does not name what it is about');
    expect(rejectReason('Members pay a monthly levy and attend the general meeting.', false)).toBe('does not name what it is about');
    expect(rejectReason('Leaders of trade unions may be bribed by government and betray their members.', false)).toBeNull();
    // examples of what? ("Examples in Nigeria are the NLC, the TUC and ASUU.")
    expect(rejectReason('Examples in Nigeria are the Nigeria Labour Congress, the Trade Union Congress and ASUU.', false)).toBe('does not name what it is about');
  });

  it('takes no definition from a slide’s "Features:" or "Uses:" line', () => {
    const got = indexMaterial([{ text: 'Clay Soil\n- Features: sticky, often waterlogged, usually heavy, rich in plant food\n- Uses: making pots, bricks and local building blocks for houses in the village', citation: 'slide 3' }]).sentences.filter((s) => s.usable).map((s) => s.text);
    expect(got.some((s) => /^(?:Features|Uses) (?:is|are) /.test(s))).toBe(false);
  });
});
