/**
 * The render thread runs at the hall process's own CPU priority (docs/decisions.md, "The
 * render thread runs at the hall's priority"): at nice 19 it stalled the event loop for
 * 100–300 ms at a time whenever other programs kept the cores busy. Linux only (/proc).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { renderInThread } from '../../src/modules/sessions/render-thread.js';

/** A thread's nice value: field 19 of /proc/<pid>/task/<tid>/stat (after the command's closing parenthesis, field 3 is the first). */
const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);

it('renders in a thread at the process’s own priority', async () => {
  const before = new Set(readdirSync('/proc/self/task'));
  const out = await renderInThread({ prompt: 'Simplify $\\frac{x^2}{x}$.', options: ['$x$', '$x^2$'], form: 'html' });
  expect(out.promptHtml).toContain('katex');
  const own = niceOf(readFileSync('/proc/self/stat', 'utf8'));
  // the threads started for the rendering (the worker and its helpers), each with its nice value
  const started = readdirSync('/proc/self/task').filter((t) => !before.has(t));
  const nices = started.map((t) => niceOf(readFileSync(`/proc/self/task/${t}/stat`, 'utf8')));
  expect(started.length).toBeGreaterThan(0);
  expect(nices).toEqual(nices.map(() => own));
});
