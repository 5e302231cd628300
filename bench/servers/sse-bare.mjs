// The bare counterpart of @x/server's idle subscriptions/listen streams: a
// node:http server that answers every POST of `subscriptions/listen` with an
// open SSE response (200, text/event-stream, one acknowledgement event), keeps
// it in a Set until its socket closes, and on a `tools/call` of `touch` writes
// one notifications/resources/updated event to every open response (answering
// the ms that took), tagged as @x/server tags it with the stream's
// subscription id (`_meta`), so that both write the same bytes per stream. One shared timer writes an SSE comment to all every 15 s
// (the keep-alive @x sends per stream). No protocol checks, no filters.
// Prints {"url": ...}; with an IPC channel (and --expose-gc) it answers memory questions.
import { createServer } from "node:http";
import { answerMemoryQuestions } from "./memory.mjs";

/** Each open response and the id of its listen request. */
const open = new Map();
const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const event = (message) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;

const http = createServer((req, res) => {
  const chunks = [];
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    let message;
    try {
      message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (message.method === "subscriptions/listen") {
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(
        event({
          jsonrpc: "2.0",
          method: "notifications/subscriptions/acknowledged",
          params: { notifications: message.params?.notifications ?? {}, _meta: { [SUBSCRIPTION_ID]: message.id } },
        }),
      );
      open.set(res, JSON.stringify(message.id ?? null));
      res.on("close", () => open.delete(res));
      return;
    }
    if (message.method === "tools/call" && message.params?.name === "touch") {
      const t0 = performance.now();
      // Serialised once; only the subscription id differs per stream.
      const json = JSON.stringify({
        jsonrpc: "2.0",
        method: "notifications/resources/updated",
        params: { uri: message.params.arguments?.uri },
      });
      const head = `event: message\ndata: ${json.slice(0, -2)},"_meta":{"${SUBSCRIPTION_ID}":`;
      for (const [r, id] of open) r.write(`${head}${id}}}}\n\n`);
      const ms = performance.now() - t0;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, result: { content: [{ type: "text", text: `${ms}` }] } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: message.id ?? null, error: { code: -32601, message: "Method not found" } }));
  });
});
setInterval(() => {
  for (const r of open.keys()) r.write(":\n\n");
}, 15_000).unref();
answerMemoryQuestions();
http.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`);
});
process.on("SIGTERM", () => {
  http.closeAllConnections();
  http.close(() => process.exit(0));
});
