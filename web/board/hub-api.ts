/**
 * The hall admin page's client on the hub's paths, for the hall's views the board's page
 * reuses (the results analysis, the question editor): `/exams/…` is asked as
 * `/hub/v1/exams/…`, and `/rubric-templates` as `/hub/v1/questions/rubric-templates`
 * (src/hub/routes/authoring.ts). Other paths go as they are.
 */
import { Api, type Method } from '../admin/api.js';

/** The hub path for a hall path (see the module comment). */
export function hubPath(path: string): string {
  if (path.startsWith('/exams/')) return `/hub/v1${path}`;
  if (path === '/rubric-templates') return '/hub/v1/questions/rubric-templates';
  return path;
}

export class HubPathApi extends Api {
  override fetch(method: Method, path: string, body?: BodyInit | null, headers: Record<string, string> = {}, signal?: AbortSignal): Promise<Response> {
    return super.fetch(method, hubPath(path), body, headers, signal);
  }
}
