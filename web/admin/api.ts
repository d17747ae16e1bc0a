/**
 * The admin page's only way to the server: every call goes through the same JSON API an
 * integrator uses, with the workspace key in the `x-api-key` header (docs/design.md §4). Errors
 * arrive as RFC 7807 problem documents and are thrown as `ApiError`.
 */

/** A failed API call: HTTP status plus the problem document's members. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly detail: string,
    readonly code?: string,
    readonly errors?: Array<Record<string, unknown>>,
  ) {
    super(detail || title || `HTTP ${status}`);
  }
  /** One readable line per validation error (`#2 options: exactly one option must be correct`). */
  lines(): string[] {
    return (this.errors ?? []).map((e) => {
      const where = [e.index !== undefined ? `#${Number(e.index) + 1}` : '', e.row !== undefined ? `row ${e.row}` : '', e.path ?? e.column ?? ''].filter(Boolean).join(' ');
      return `${where}${where ? ': ' : ''}${String(e.message ?? '')}`;
    });
  }
}

/** Turns a non-2xx response into an ApiError (problem+json when the server sent one). */
export async function toApiError(res: Response): Promise<ApiError> {
  let body: Record<string, unknown> = {};
  try {
    body = (await res.json()) as Record<string, unknown>;
  } catch {
    /* not JSON (a proxy page, an empty 404) */
  }
  return new ApiError(
    res.status,
    String(body.title ?? res.statusText ?? 'Request failed'),
    String(body.detail ?? body.title ?? `The server answered ${res.status}.`),
    typeof body.code === 'string' ? body.code : undefined,
    Array.isArray(body.errors) ? (body.errors as Array<Record<string, unknown>>) : undefined,
  );
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Client bound to one API key (or none, for sign-in and registration). */
export class Api {
  /** Called with every 401 on a keyed call, so the page can return to sign-in. */
  onUnauthorized: (() => void) | null = null;

  constructor(readonly apiKey: string | null) {}

  /** Headers for a request; the key travels only in `x-api-key`. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.apiKey ? { 'x-api-key': this.apiKey, ...extra } : { ...extra };
  }

  /** Raw fetch with the key header; throws ApiError on non-2xx. */
  async fetch(method: Method, path: string, body?: BodyInit | null, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    const res = await fetch(path, { method, headers: this.headers(headers), body: body ?? undefined, signal, cache: 'no-store' });
    if (!res.ok) {
      if (res.status === 401 && this.apiKey && this.onUnauthorized) this.onUnauthorized();
      throw await toApiError(res);
    }
    return res;
  }

  /** JSON request → parsed JSON response (undefined for 204). */
  async json<T>(method: Method, path: string, body?: unknown): Promise<T> {
    const res = await this.fetch(method, path, body === undefined ? null : JSON.stringify(body), body === undefined ? {} : { 'content-type': 'application/json' });
    if (res.status === 204) return undefined as T;
    const text = await res.text();
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get<T>(path: string): Promise<T> {
    return this.json<T>('GET', path);
  }
  post<T>(path: string, body: unknown = {}): Promise<T> {
    return this.json<T>('POST', path, body);
  }
  put<T>(path: string, body: unknown): Promise<T> {
    return this.json<T>('PUT', path, body);
  }
  patch<T>(path: string, body: unknown): Promise<T> {
    return this.json<T>('PATCH', path, body);
  }
  del(path: string): Promise<void> {
    return this.json<void>('DELETE', path);
  }

  /** Multipart upload (file imports); the browser sets the boundary. */
  async form<T>(path: string, data: FormData): Promise<T> {
    const res = await this.fetch('POST', path, data);
    return (await res.json()) as T;
  }

  /**
   * Downloads a keyed file (results.xlsx, roster.xlsx…): fetched with the key header,
   * then saved through a temporary blob link, since a plain link cannot carry the key.
   */
  async download(path: string, fallbackName: string): Promise<void> {
    const res = await this.fetch('GET', path);
    const cd = res.headers.get('content-disposition') ?? '';
    const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
    const name = m ? decodeURIComponent(m[1]!) : fallbackName;
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
