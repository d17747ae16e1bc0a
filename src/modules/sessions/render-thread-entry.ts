/**
 * The rendering thread (started by render-thread.ts): Markdown + KaTeX + sanitize-html
 * (rendered-question.ts) off the event loop that serves candidates' saves, at the lowest CPU
 * priority.
 * Messages in: `{id, job: QuestionText}` → out `{id, out: RenderedText}` (its JSON fragments
 * transferred, not copied) or `{id, error}`.
 */
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { renderQuestionText, type QuestionText } from './rendered-question.js';

// The lowest CPU priority, for this thread only (Linux's setpriority(PRIO_PROCESS, 0) acts on
// the calling thread): typesetting a paper waits while the event loop has saves to answer
try {
  setPriority(19);
} catch {
  /* not allowed here: rendering runs at the process's priority */
}

parentPort!.on('message', (m: { id: number; job: QuestionText }) => {
  try {
    const out = renderQuestionText(m.job);
    // Buffer.from(string) may share one pooled ArrayBuffer between small buffers: copy those
    const own = (b: Uint8Array) => (b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : new Uint8Array(b));
    const sent = { ...out, promptJson: own(out.promptJson), optionJson: out.optionJson.map(own) };
    parentPort!.postMessage({ id: m.id, out: sent }, [sent.promptJson.buffer as ArrayBuffer, ...sent.optionJson.map((b) => b.buffer as ArrayBuffer)]);
  } catch (e) {
    parentPort!.postMessage({ id: m.id, error: (e as Error).message });
  }
});
