// The page's calls to its backend. URLs are relative: the page lives under /<token>/.
import type { Ask, CallAnswer, DevtoolsEvent, Info, JsonObject } from "./types.js";

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return (await response.json()) as T;
}

export const getInfo = (): Promise<Info> => fetch("api/info").then((r) => json<Info>(r));

export interface Catalog {
  tools: JsonObject[];
  prompts: JsonObject[];
  resources: JsonObject[];
  resourceTemplates: JsonObject[];
}
export const getCatalog = (era: string): Promise<Catalog> =>
  fetch(`api/catalog?era=${encodeURIComponent(era)}`).then((r) => json<Catalog>(r));

export type CallRequest =
  | { era: string; kind: "tool" | "prompt"; name: string; arguments: JsonObject }
  | { era: string; kind: "resource"; uri: string };

export async function call(body: CallRequest): Promise<CallAnswer> {
  const response = await fetch("api/call", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (!response.ok) return { ok: false, error: { code: response.status, message: `HTTP ${response.status}: ${await response.text()}` } };
  return (await response.json()) as CallAnswer;
}

export async function answerAsk(id: string, action: "accept" | "decline" | "cancel", content?: JsonObject): Promise<void> {
  await fetch(`api/asks/${encodeURIComponent(id)}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(content === undefined ? { action } : { action, content }),
  });
}

/** Subscribes to `api/events`; EventSource reconnects by itself (the backend then replays its buffer). */
export function events(onEvent: (event: DevtoolsEvent) => void, onState: (connected: boolean) => void): EventSource {
  const source = new EventSource("api/events");
  source.onopen = () => onState(true);
  source.onerror = () => onState(false);
  source.onmessage = (message) => {
    try {
      onEvent(JSON.parse(message.data) as DevtoolsEvent);
    } catch {
      // A malformed event is skipped: the stream goes on.
    }
  };
  return source;
}

export type { Ask };
