// The bare responder: the least a JSON-RPC server can do. It reads the whole
// request, parses it (to find the method, tool and id), and writes the bytes
// @x/server answered for that request, captured once at the start of the
// run, with the request's id put in. No protocol checks, no dispatch.
//
//   node bare.mjs ANSWERS.json           node:http on 127.0.0.1, a free port; prints {"url": ...}
//   node bare.mjs ANSWERS.json --stdio   one answer line per request line
//
// ANSWERS.json maps "method name" (e.g. "tools/call echo", "tools/list ") to
// [the text before the id, the text after it].
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const answers = JSON.parse(readFileSync(process.argv[2], "utf8"));

function answer(text) {
  const message = JSON.parse(text);
  const parts = answers[`${message.method} ${message.params?.name ?? ""}`];
  if (!parts) return `{"jsonrpc":"2.0","id":${JSON.stringify(message.id ?? null)},"error":{"code":-32601,"message":"Method not found"}}`;
  return parts[0] + JSON.stringify(message.id) + parts[1];
}

if (process.argv.includes("--stdio")) {
  let rest = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) if (line !== "") out += `${answer(line)}\n`;
    if (out !== "") process.stdout.write(out);
  });
} else {
  const http = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const body = answer(Buffer.concat(chunks).toString("utf8"));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
  });
  http.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${http.address().port}/mcp` })}\n`);
  });
  process.on("SIGTERM", () => {
    http.closeAllConnections();
    http.close(() => process.exit(0));
  });
}
