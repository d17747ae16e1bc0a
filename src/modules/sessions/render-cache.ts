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
import type { MathForm } from '../../core/rich-text.js';
import type { PaperQuestion } from '../../core/grading/paper.js';
import { renderInThread } from './render-thread.js';
import type { RenderedText } from './rendered-question.js';

/** Rendered HTML of a question: its prompt, and each option's text by option id; with their JSON fragments (rendered-question.ts). */
export interface RenderedQuestion {
  promptHtml: string;
  optionHtml: Map<string, string>;
  /** `"prompt":…,"promptHtml":…`, UTF-8 */
  promptJson: Uint8Array;
  /** by option id: `"text":…,"html":…}`, UTF-8 */
  optionJson: Map<string, Uint8Array>;
}

/** A question's rendering by its option ids. */
export function byOptionId(optionIds: string[], r: RenderedText): RenderedQuestion {
  return {
    promptHtml: r.promptHtml,
    optionHtml: new Map(optionIds.map((id, i) => [id, r.optionHtml[i]!])),
    promptJson: r.promptJson,
    optionJson: new Map(optionIds.map((id, i) => [id, r.optionJson[i]!])),
  };
}

/** Characters of rendered HTML and bytes of their JSON the cache keeps: 64 M (~96 MB at most), beside the papers that hold the current ones. */
const MAX_CACHED_CHARS = 64_000_000;

const cache = new LRUCache<string, RenderedQuestion>({
  maxSize: MAX_CACHED_CHARS,
  // the HTML strings and their UTF-8 JSON copies
  sizeCalculation: (r) => Math.max(1, r.promptHtml.length + r.promptJson.byteLength + [...r.optionHtml.values()].reduce((s, h) => s + h.length, 0) + [...r.optionJson.values()].reduce((s, b) => s + b.byteLength, 0)),
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
    const ids = q.options.map((o) => o.id);
    p = renderInThread({ prompt: q.prompt, options: q.options.map((o) => o.text), form })
      .then((out) => {
        renderCounts.questions++;
        const r = byOptionId(ids, out);
        cache.set(key, r);
        return r;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, p);
  }
  return p;
}
