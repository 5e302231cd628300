/** Reads a page's event stream as the page would: one JSON value per `data:` line. */
export interface EventReader {
  /** Resolves with the events read so far once `done` holds for them (checked after each event); rejects if the stream ends first. */
  until(done: (events: Record<string, unknown>[]) => boolean): Promise<Record<string, unknown>[]>;
  /** Every byte read so far, as text. */
  text(): string;
  close(): void;
}

export async function readEvents(url: string): Promise<EventReader> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  if (response.status !== 200 || response.body === null) throw new Error(`events: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const events: Record<string, unknown>[] = [];
  let raw = "";
  let pending = "";
  return {
    async until(done) {
      while (!done(events)) {
        const { value, done: ended } = await reader.read();
        if (ended) throw new Error("the event stream ended");
        const chunk = decoder.decode(value, { stream: true });
        raw += chunk;
        pending += chunk;
        let end = pending.indexOf("\n\n");
        while (end !== -1) {
          const block = pending.slice(0, end);
          pending = pending.slice(end + 2);
          for (const line of block.split("\n")) if (line.startsWith("data: ")) events.push(JSON.parse(line.slice(6)));
          end = pending.indexOf("\n\n");
        }
      }
      return events;
    },
    text: () => raw,
    close: () => controller.abort(),
  };
}

/** The traffic events of `events` (the `event` member of each `type: "traffic"`). */
export function traffic(events: Record<string, unknown>[]): Record<string, any>[] {
  return events.filter((e) => e.type === "traffic").map((e) => e.event as Record<string, any>);
}
