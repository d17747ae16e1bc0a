/**
 * Round 38 (docs/quality.md): faults the blind judge named, and two the same material showed in
 * development, refused or mended where they are made. Hand-written material in the manner of the
 * round's commerce notes and chemistry deck (none copied from the set):
 * - "Helps companies and government to raise short-term capital …", a function listed under
 *   "FUNCTIONS (IMPORTANCE) OF THE STOCK EXCHANGE", was given with no subject: the heading's
 *   bracketed second name hid its topic, and a present verb with no subject passed as a sentence.
 *   The heading now names its topic, and such a verb phrase is refused where no heading gives it
 *   one (docs/decisions.md, "A verb phrase takes its heading's subject");
 * - "Sublimation = solid changes directly to vapour on heating" became "Sublimation is solid
 *   changes directly …", and "Valuation of securities – the forces of demand and supply fix the
 *   prices of shares" became "The valuation of securities is the forces …": a subject and its verb
 *   read as a noun phrase. Such a description is no definition now;
 * - "Dividend is the part of profit …": "(b) Dividend yield = …" made the material seem to write
 *   "Dividend" as a name. A capital after a list's label is a sentence's, not a name's;
 * - and, from round 35's deck, "Actuary is the expert who …": a person in a role takes "a"/"an";
 * - two statements of the notes' "PROCEDURE FOR BUYING SHARES" needed "In the procedure for
 *   buying shares, …" (the judge's edit): a procedure's steps are framed by it (docs/decisions.md,
 *   "A procedure's steps are framed by it");
 * - the unusable item, "Rice and beans is one dish that one is a single meal.", joined two cues of
 *   speech because the second opened with "that": "that" as a pronoun ("that one …", "that means
 *   …") no longer continues the cue before.
 */
import { describe, expect, it } from 'vitest';
import { framedSteps, procedureFrame } from '../../src/core/generation/engine/procedures.js';
import { spokenSentences } from '../../src/core/generation/engine/spoken.js';
import { dashDefinition, definitionBullet, headingTopic, isNounPhrase } from '../../src/core/generation/engine/repair.js';
import { indexMaterial, rejectReason } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';

describe('round 38', () => {
  it('reads the topic of a heading with a second name for its kind in brackets', () => {
    expect(headingTopic('FUNCTIONS (IMPORTANCE) OF THE STOCK EXCHANGE', 'The stock exchange is a market.')?.phrase).toBe('the stock exchange');
  });

  it('gives a listed verb phrase its heading as subject, and refuses one no heading names', () => {
    const notes: Passage[] = [
      { text: 'FUNCTIONS (IMPORTANCE) OF THE STOCK EXCHANGE', citation: 'paragraph 1' },
      { text: '1. Helps companies and government to raise long-term capital for expansion.\n2. Encourages foreign investment into the country.', citation: 'paragraph 2' },
    ];
    const ok = indexMaterial(notes).sentences.filter((s) => s.reason === null).map((s) => s.text);
    expect(ok).toContain('The stock exchange helps companies and government to raise long-term capital for expansion.');
    expect(ok).toContain('The stock exchange encourages foreign investment into the country.');
    expect(rejectReason('Helps companies and government to raise long-term capital for expansion.', false)).toBe('not a sentence (a list item)');
    expect(rejectReason('Provides a market for existing securities of all listed companies.', false)).toBe('not a sentence (a list item)');
    // a plural subject the tagger reads as a name is still a sentence
    expect(rejectReason('Rivers carry sediments from the highlands down to the sea.', false)).toBeNull();
  });

  it('reads a subject and its verb as no noun phrase, so no definition is made of them', () => {
    expect(isNounPhrase('forces of demand and supply fix the prices of shares')).toBe(false);
    expect(isNounPhrase('solid changes directly to vapour on heating')).toBe(false);
    expect(isNounPhrase('market for the buying and selling of existing securities')).toBe(true);
    expect(definitionBullet('Sublimation: solid changes directly to vapour on heating', 'sublimation')).toBeNull();
    expect(dashDefinition('Valuation of securities – the forces of demand and supply fix the prices of shares.', 'the valuation')).toBeNull();
  });

  it('takes a capital after a list label for a sentence start, not a name', () => {
    const material = 'Dividend is paid on shares.\n(b) Dividend yield = dividend per share ÷ market price x 100\nThe company declared a dividend of N1.20.';
    expect(dashDefinition('Dividend – the part of profit shared to shareholders.', material)).toBe('The dividend is the part of profit shared to shareholders.');
    // nor one in a title joined by "&"
    const deck = 'Wages & Minimum Wage\nThe minimum wage of a country is set by its law.';
    expect(definitionBullet('Minimum Wage: lowest pay allowed by law', deck)).toBe('Minimum wage is the lowest pay allowed by law.');
  });

  it('gives a person in a role "a"/"an", not a title the material writes with its capital', () => {
    const material = 'The actuary works for the insurer. Waziri advised the Emir.';
    expect(definitionBullet('Actuary: expert who calculates risks and premiums using statistics', material)).toBe('An actuary is an expert who calculates risks and premiums using statistics.');
    expect(definitionBullet('Insurer: company that accepts the risk of loss', material)).toBe('An insurer is a company that accepts the risk of loss.');
    expect(definitionBullet('Waziri: officer who advised the Emir on state matters', material)).toBe('Waziri is the officer who advised the Emir on state matters.');
    expect(definitionBullet('Insurance: contract between the insurer and the insured', material)).toBe('Insurance is the contract between the insurer and the insured.');
  });

  it("frames a procedure's steps by the procedure, in notes and on a slide", () => {
    const material = 'Shares are bought on the NGX platform.';
    expect(procedureFrame('7. PROCEDURE FOR BUYING SHARES', material)).toBe('In the procedure for buying shares');
    expect(procedureFrame('### 4. STEPS IN PREPARING A BANK RECONCILIATION STATEMENT', material)).toBe('In preparing a bank reconciliation statement');
    expect(procedureFrame('# Stages of the Electoral Process (1)', material)).toBe('In the electoral process');
    expect(procedureFrame('Causes of inflation', material)).toBeNull();
    expect(procedureFrame('The process of fertilisation takes place as follows:', material)).toBeNull();
    const framed = framedSteps([
      { text: '7. PROCEDURE FOR BUYING SHARES', citation: 'paragraph 1' },
      { text: '1. The investor opens an account with a stockbroker. 2. The broker executes the order on the NGX platform.', citation: 'paragraph 2' },
      { text: 'Procedure for Taking a Policy\n- 1. Contact insurer or broker\n- 2. The insurer assesses the risk and fixes the premium', citation: 'slide 3' },
    ]);
    expect(framed[1]!.text).toBe('1. In the procedure for buying shares, the investor opens an account with a stockbroker. 2. In the procedure for buying shares, the broker executes the order on the NGX platform.');
    // an instruction is left as written (and refused as one)
    expect(framed[2]!.text).toBe('Procedure for Taking a Policy\n- 1. Contact insurer or broker\n- 2. In the procedure for taking a policy, the insurer assesses the risk and fixes the premium');
    const ok = indexMaterial(framed).sentences.filter((x) => x.reason === null).map((x) => x.text);
    expect(ok).toContain('In the procedure for buying shares, the broker executes the order on the NGX platform.');
  });

  it('does not join a cue that opens with "that" as a pronoun to the cue before', () => {
    // (the pronoun's cue is then dropped as talk that leans on the cue before)
    expect(spokenSentences(['rice and beans is one dish', 'that one is a single meal'])).toEqual(['Rice and beans is one dish.']);
    expect(spokenSentences(['the secretary and treasurer of the club is absent today', 'that means one person is doing the two jobs'])).toEqual(['The secretary and treasurer of the club is absent today.']);
    // a relative "that" still continues: "the liquid | that is left after filtration"
    expect(spokenSentences(['the filtrate is the clear liquid', 'that passes through the filter paper'])).toEqual(['The filtrate is the clear liquid that passes through the filter paper.']);
  });
});
