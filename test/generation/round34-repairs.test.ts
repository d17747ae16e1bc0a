/**
 * Round 34 (docs/quality.md): the slide deck on pre-colonial political systems gave no item at
 * all. Its facts are written "Name → what it is" ("Waziri → prime minister / head of all
 * officials", "Madawaki → commander of army"), and only "Name = what it is" was read as a
 * definition. An arrow followed by a noun phrase that names a role (a person or a body) now is
 * one too (src/core/generation/engine/arrow-definitions.ts, `equalsBullet`; docs/decisions.md, "An arrow
 * before a noun phrase defines"). Hand-written bullets in the manner of a government deck.
 */
import { describe, expect, it } from 'vitest';
import { equalsBullet } from '../../src/core/generation/engine/arrow-definitions.js';
import { indexMaterial } from '../../src/core/generation/engine/sentences.js';
import type { Passage } from '../../src/core/generation/passage.js';

describe('an arrow before a noun phrase', () => {
  it('defines the name before it', () => {
    expect(equalsBullet('Waziri → prime minister / head of all officials', '')).toBe('Waziri is the prime minister or head of all officials.');
    const ps = 'The Permanent Secretary of a ministry is appointed by the Civil Service Commission.\n- Permanent Secretary → administrative head and accounting officer';
    expect(equalsBullet('Permanent Secretary → administrative head and accounting officer', ps)).toBe('Permanent Secretary is the administrative head and accounting officer.');
  });

  it('does not define where the arrow stands for anything else', () => {
    // a clause: what the thing does
    expect(equalsBullet('Centralised system → one central authority controls the whole area', '')).toBeNull();
    // a list of what the thing has or uses
    expect(equalsBullet('Religion → oath taking, Ofo & oracles used to enforce laws', '')).toBeNull();
    // a result or an effect, not a role (round 34's development packets: "Wrong blood is the agglutination …")
    expect(equalsBullet('Wrong blood → agglutination (clumping of red cells)', '')).toBeNull();
    expect(equalsBullet("Employers' anti-union attitude → victimisation of union leaders", '')).toBeNull();
    expect(equalsBullet('Jangali → cattle tax paid by herdsmen', '')).toBeNull();
    // (the role is the last word before the preposition: here the leaders are what is co-opted)
    expect(equalsBullet('Political influence → leaders co-opted by government', '')).toBeNull();
    // a figure
    expect(equalsBullet('Oyo Mesi → council of 7 kingmakers', '')).toBeNull();
  });

  it('gives a deck of such bullets sentences to ask about', () => {
    const deck: Passage[] = [
      { citation: 'slide 1', text: 'PRE-COLONIAL SYSTEMS\nGovernment – SS 2' },
      { citation: 'slide 2', text: "EMIR'S OFFICIALS\n- Waziri → prime minister / head of all officials\n- Galadima → administrator of the capital city\n- Madawaki → commander of the army\n- Ma'aji → treasurer of the emirate" },
    ];
    const texts = indexMaterial(deck).sentences.filter((s) => s.reason === null).map((s) => s.text);
    expect(texts).toContain('Galadima is the administrator of the capital city.');
    expect(texts).toContain('Madawaki is the commander of the army.');
  });
});
