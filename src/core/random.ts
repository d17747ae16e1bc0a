/**
 * The core's one seeded pseudo-random generator (mulberry32, public domain): the same 32-bit
 * seed gives the same sequence on any machine, so a candidate's draw of questions
 * (exams/sections.ts) and the generation engines' choices (generation/text/seed.ts) are
 * reproducible from a stored seed. Not for secrets: ids, PINs and keys use the platform's
 * crypto.
 */

/**
 * A generator seeded with `seed` (taken as an unsigned 32-bit integer).
 * @returns a function giving the next integer in [0, 2³²)
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}
