/**
 * The rendering thread (started by render-thread.ts): Markdown + KaTeX + sanitize-html
 * (rendered-question.ts) off the event loop that serves candidates' saves, at the process's
 * own CPU priority (docs/decisions.md, "The render thread runs at the hall's priority").
 * Messages in: `{id, job: QuestionText}` → out `{id, out: RenderedText}` (its JSON fragments
 * transferred, not copied) or `{id, error}`.
 */
import { parentPort } from 'node:worker_threads';
import { renderQuestionText, type QuestionText } from './rendered-question.js';

// Not at a lower priority: this thread shares the process's memory map, allocator and V8
// platform with the event loop, and when other programs kept the cores busy a nice-19 thread
// stalled the event loop for 100–300 ms at a time (most likely descheduled while holding a
// lock the event loop then waited for) and a first start took 25–43 s (docs/decisions.md)

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
