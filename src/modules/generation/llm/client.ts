/**
 * Minimal client for an OpenAI-compatible chat-completions endpoint (a local Ollama or
 * llama.cpp server on the LAN, or a cloud service), asking for JSON that follows a JSON
 * schema (`response_format: {type: "json_schema"}`), validated again with zod on return.
 * Every failure — network, HTTP status, time-out, non-JSON, schema mismatch — is an
 * LlmFailure, so callers can fall back to the built-in engines (docs/design.md §10).
 */
import { z } from 'zod';
import type { Config } from '../../../platform/config.js';

/** Where and how to reach the model. */
export interface LlmSettings {
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/** Default time a request to the model may take before the built-in engine is used instead. */
export const DEFAULT_LLM_TIMEOUT_MS = 60_000;

/** Settings from configuration, or null when no LLM is configured (CBT_LLM_BASE_URL and CBT_LLM_MODEL both needed). */
export function llmSettings(config: Config, timeoutMs?: number): LlmSettings | null {
  if (!config.CBT_LLM_BASE_URL || !config.CBT_LLM_MODEL) return null;
  return { baseUrl: config.CBT_LLM_BASE_URL, model: config.CBT_LLM_MODEL, apiKey: config.CBT_LLM_API_KEY, timeoutMs: timeoutMs ?? config.CBT_LLM_TIMEOUT_MS ?? DEFAULT_LLM_TIMEOUT_MS };
}

/** Why the model's answer could not be used. */
export class LlmFailure extends Error {}

/** A chat message. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The chat-completions URL for a base URL such as http://host:11434/v1. */
export function completionsUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
}

const CompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable() }) })).min(1),
});

/**
 * Sends `messages` and returns the model's JSON answer parsed by `schema`.
 * @throws LlmFailure on any failure (including the time-out).
 */
export async function chatJson<T extends z.ZodType>(settings: LlmSettings, messages: ChatMessage[], name: string, schema: T): Promise<z.infer<T>> {
  const jsonSchema = z.toJSONSchema(schema) as Record<string, unknown>;
  delete jsonSchema.$schema;
  let res: Response;
  try {
    res = await fetch(completionsUrl(settings.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
      body: JSON.stringify({ model: settings.model, messages, temperature: 0, response_format: { type: 'json_schema', json_schema: { name, strict: true, schema: jsonSchema } } }),
      signal: AbortSignal.timeout(settings.timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    throw new LlmFailure(e.name === 'TimeoutError' ? `no answer within ${Math.round(settings.timeoutMs / 1000)} s` : `could not be reached (${e.message})`);
  }
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new LlmFailure(`answered HTTP ${res.status} without JSON`);
  }
  if (!res.ok) throw new LlmFailure(`answered HTTP ${res.status}`);
  const completion = CompletionSchema.safeParse(body);
  if (!completion.success) throw new LlmFailure('answered without a chat completion');
  const content = (completion.data.choices[0]!.message.content ?? '').trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch {
    throw new LlmFailure('answered with malformed JSON');
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new LlmFailure(`answered JSON that does not match the schema (${result.error.issues[0]?.path.join('.')}: ${result.error.issues[0]?.message})`);
  return result.data;
}
