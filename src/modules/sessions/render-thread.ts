/**
 * Renders question text in a worker thread (render-thread-entry.ts), so that typesetting a
 * paper — up to ~0.5 s of CPU for one question of the largest size allowed, measured in
 * docs/reliability.md — never holds the event loop that answers candidates' saves (issue
 * #34 §3). One thread, started on first use and ended after IDLE_MS without work; it does
 * not keep the process alive. If the thread cannot start or dies, the text is rendered on
 * the event loop instead, one question per turn (the output is the same: one module renders).
 */
import { Worker } from 'node:worker_threads';
import { renderQuestionText, type QuestionText, type RenderedText } from './rendered-question.js';

/** The thread ends after this long without work (ms). */
const IDLE_MS = 30_000;

/** Where the thread's code is: compiled JavaScript, or TypeScript under tsx (tests, `npm run dev`). */
function spawn(): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./render-thread-entry.${fromSource ? 'ts' : 'js'}`, import.meta.url);
  if (!fromSource) return new Worker(entry);
  const boot = "import('tsx/esm/api').then(({ register }) => { register(); return import(require('node:worker_threads').workerData.entry); })";
  return new Worker(boot, { eval: true, workerData: { entry: entry.href } });
}

type Pending = { job: QuestionText; resolve: (out: RenderedText) => void; reject: (e: Error) => void };

let worker: Worker | null = null;
let broken = false;
let nextId = 1;
const pending = new Map<number, Pending>();
let idle: NodeJS.Timeout | null = null;

function stopWhenIdle(): void {
  if (idle) clearTimeout(idle);
  idle = null;
  if (pending.size === 0 && worker) {
    idle = setTimeout(() => {
      if (pending.size > 0 || !worker) return;
      const w = worker;
      worker = null;
      void w.terminate();
    }, IDLE_MS);
    idle.unref();
  }
}

/** The thread failed: what it still owed is rendered here, and later work too. */
function fail(w: Worker): void {
  if (worker !== w) return;
  worker = null;
  broken = true;
  const owed = [...pending.values()];
  pending.clear();
  for (const p of owed) void renderHere(p.job).then(p.resolve, p.reject);
}

function thread(): Worker | null {
  if (worker || broken) return worker;
  try {
    const w = spawn();
    w.unref();
    w.on('message', (m: { id: number; out?: RenderedText; error?: string }) => {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.out) p.resolve(m.out);
      else p.reject(new Error(m.error ?? 'rendering failed'));
      stopWhenIdle();
    });
    w.on('error', () => fail(w));
    w.on('exit', () => fail(w));
    worker = w;
  } catch {
    broken = true;
  }
  return worker;
}

/** Renders on the event loop, in a later turn (the fallback). */
async function renderHere(job: QuestionText): Promise<RenderedText> {
  await new Promise<void>((r) => setImmediate(r));
  return renderQuestionText(job);
}

/**
 * Renders one question's text (rendered-question.ts) in the thread.
 * @returns exactly what `renderQuestionText` returns for it
 */
export function renderInThread(job: QuestionText): Promise<RenderedText> {
  const w = thread();
  if (!w) return renderHere(job);
  if (idle) clearTimeout(idle);
  idle = null;
  return new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { job, resolve, reject });
    w.postMessage({ id, job });
  });
}
