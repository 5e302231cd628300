/** Type-level checks of the client's typed request path (compiled by `tsc` in `typecheck`). */
import type { CallToolResult, DiscoverResult, InputRequiredResult, ListToolsResult } from "@x/mcp-v2607";
import type { Client, RequestArguments } from "../src/index.js";

declare const client: Client;
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const check = <T extends true>(): T | undefined => undefined;

export async function typedRequests(): Promise<void> {
  const tools = await client.request("tools/list");
  check<Equal<typeof tools, ListToolsResult>>();
  const discovered = await client.request("server/discover", {});
  check<Equal<typeof discovered, DiscoverResult>>();
  // The raw path does not resolve Multi Round-Trip Requests, so input_required can come back.
  const called = await client.request("tools/call", { name: "add", arguments: { a: 1 } });
  check<Equal<typeof called, InputRequiredResult | CallToolResult>>();
  // The client writes _meta itself: the params need none.
  const args: RequestArguments<"tools/call"> = { name: "add" };
  void args;
  // @ts-expect-error: tools/call needs a name
  await client.request("tools/call", {});
  // A method outside the table is still allowed, untyped.
  const custom = await client.request("x/custom", { anything: 1 });
  check<Equal<typeof custom, Record<string, unknown>>>();
  const list = await client.listTools();
  check<Equal<typeof list, ListToolsResult>>();
  const result = await client.callTool("add", { a: 1 });
  check<Equal<typeof result, CallToolResult>>();
}
