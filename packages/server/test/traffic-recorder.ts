// What the traffic tests share: a subscriber to x-mcp:traffic that copies each event as published
// (a request's event is the same object at start and end) and lets a test wait for one.
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { stringifyJson } from "@x/jsonrpc";
import { TRAFFIC_CHANNEL, type TrafficEvent } from "../src/traffic.js";

export type AnyEvent = TrafficEvent & Record<string, any>;

export function recordTraffic() {
  const events: AnyEvent[] = [];
  const texts: string[] = [];
  const waiters: { match: (e: AnyEvent) => boolean; resolve: (e: AnyEvent) => void }[] = [];
  const listener = (message: unknown) => {
    const text = stringifyJson(message);
    texts.push(text);
    const event = JSON.parse(text) as AnyEvent;
    events.push(event);
    for (const w of waiters.filter((w) => w.match(event))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(event);
    }
  };
  subscribe(TRAFFIC_CHANNEL, listener);
  return {
    events,
    /** Every event's JSON, as published. */
    texts,
    /** The first event seen that `match` accepts (a failed expectation when none was). */
    find(match: (e: AnyEvent) => boolean): AnyEvent {
      const seen = events.find(match);
      if (seen === undefined) throw new Error("no such traffic event was published");
      return seen;
    },
    /** The first event (seen or to come) that `match` accepts. */
    until(match: (e: AnyEvent) => boolean): Promise<AnyEvent> {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    stop: () => unsubscribe(TRAFFIC_CHANNEL, listener),
  };
}
