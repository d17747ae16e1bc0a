/**
 * Reads a server-sent event stream in a test (the live monitor's, GET
 * /exams/{id}/monitor/stream): every event as it arrives, with its name (`message` when it
 * has none), its data parsed as JSON and its SSE id (null when it has none).
 */
export interface SseEvent {
  event: string;
  data: any;
  id: string | null;
}

/**
 * Opens the stream at `url` with `headers` and reads it until `close()`.
 * @returns the response (its status and headers, for the caller to check), the events read so far, and close()
 */
export async function openEventStream(url: string, headers: Record<string, string>) {
  const ctrl = new AbortController();
  const res = await fetch(url, { headers, signal: ctrl.signal });
  const events: SseEvent[] = [];
  const reader = res.body?.getReader();
  const pump = (async () => {
    if (!reader) return;
    const dec = new TextDecoder();
    let buf = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buf += dec.decode(value);
      let i;
      while ((i = buf.indexOf('\n\n')) >= 0) {
        const lines = buf.slice(0, i).split('\n');
        buf = buf.slice(i + 2);
        const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2) ?? null;
        events.push({ event: field('event') ?? 'message', id: field('id'), data: JSON.parse(lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n')) });
      }
    }
  })();
  return {
    res,
    events,
    close: async () => {
      ctrl.abort();
      await pump;
    },
  };
}
