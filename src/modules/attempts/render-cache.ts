/**
 * The rendered HTML of questions, once per question version and maths form (issue #34 §3).
 * Keyed by the form and a digest of what is rendered (the prompt, the options' ids and
 * texts), so a question is typeset again only when its text changes: not when its exam's
 * cached paper is rebuilt (every exam change, pause or roster edit does that), and not per
 * start. Rendering runs in the render thread (render-thread.ts); concurrent requests for
 * one version share one rendering (single flight). The cache is bounded in characters, so
 * old oversized exams cost their rendering once too, without holding the memory for ever.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { MathForm } from '../../platform/rich-text.js';
import type { PaperQuestion } from '../../core/grading/paper.js';
import { renderInThread } from './render-thread.js';

/** Rendered HTML of a question: its prompt, and each option's text by option id. */
export interface RenderedQuestion {
  promptHtml: string;
  optionHtml: Map<string, string>;
}

/** Characters of rendered HTML the cache keeps (~2 bytes each in V8 at worst): 48 M, beside the papers that hold the current ones. */
const MAX_CACHED_CHARS = 48_000_000;

const cache = new LRUCache<string, RenderedQuestion>({
  maxSize: MAX_CACHED_CHARS,
  sizeCalculation: (r) => Math.max(1, r.promptHtml.length + [...r.optionHtml.values()].reduce((s, h) => s + h.length, 0)),
});
const inFlight = new Map<string, Promise<RenderedQuestion>>();

/**
 * Questions rendered so far in this process (each counts once per form), for the tests
 * that check a version is rendered once (test/core/paper-render-once.test.ts).
 */
export const renderCounts = { questions: 0 };

/** The cache key of a question's text in `form`. */
function keyOf(q: Pick<PaperQuestion, 'prompt' | 'options'>, form: MathForm): string {
  const h = createHash('sha256').update(q.prompt ?? '');
  for (const o of q.options) h.update(`\u0000${o.id}\u0000${o.text ?? ''}`);
  return `${form}:${h.digest('base64url')}`;
}

/** The question's rendered HTML when this version is cached, else undefined. */
export function cachedRendering(q: Pick<PaperQuestion, 'prompt' | 'options'>, form: MathForm): RenderedQuestion | undefined {
  return cache.get(keyOf(q, form));
}

/**
 * The question's rendered HTML in `form`: from the cache, or rendered once in the render
 * thread (callers asking for the same version meanwhile wait for that one rendering).
 */
export function renderQuestion(q: Pick<PaperQuestion, 'prompt' | 'options'>, form: MathForm): Promise<RenderedQuestion> {
  const key = keyOf(q, form);
  const hit = cache.get(key);
  if (hit) return Promise.resolve(hit);
  let p = inFlight.get(key);
  if (!p) {
    const options = q.options.map((o) => ({ id: o.id, text: o.text }));
    const jobs = [{ source: q.prompt || '', inline: false, form }, ...options.map((o) => ({ source: o.text || '', inline: true, form }))];
    p = renderInThread(jobs)
      .then((html) => {
        renderCounts.questions++;
        const r: RenderedQuestion = { promptHtml: html[0]!, optionHtml: new Map(options.map((o, i) => [o.id, html[i + 1]!])) };
        cache.set(key, r);
        return r;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return p;
}
