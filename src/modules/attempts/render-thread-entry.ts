/**
 * The rendering thread (started by render-thread.ts): Markdown + KaTeX + sanitize-html
 * (src/platform/rich-text.ts) off the event loop that serves candidates' saves.
 * Messages in: `{id, jobs: {source, inline, form}[]}` → out `{id, html: string[]}` (one per
 * job, in order) or `{id, error}`.
 */
import { parentPort } from 'node:worker_threads';
import { renderRich, type MathForm } from '../../platform/rich-text.js';

interface Job {
  source: string;
  inline: boolean;
  form: MathForm;
}

parentPort!.on('message', (m: { id: number; jobs: Job[] }) => {
  try {
    parentPort!.postMessage({ id: m.id, html: m.jobs.map((j) => renderRich(j.source, j.inline, j.form)) });
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).message });
  }
});
