// The bare responder: the least a JSON-RPC server can do. It reads the whole
// request, parses it (to find the method, tool and id), and writes the bytes
// @x/server answered for that request, captured once at the start of the
// run, with the request's id put in. No protocol checks, no dispatch.
//
//   node bare.mjs ANSWERS.json           node:http on 127.0.0.1, a free port; prints {"url": ...}
//   node bare.mjs ANSWERS.json --stdio   one answer line per request line
//
// ANSWERS.json maps "method name" (e.g. "tools/call echo", "tools/list ") to
// [the text before the id, the text after it, its content type]; a request
// without the 2026-07-28 `_meta` (the earlier era, sent on a session) is
// looked up as "2025-11-25 method name" (its session id is not looked at).
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const answers = JSON.parse(readFileSync(process.argv[2], "utf8"));

const JSON_TYPE = "application/json";

/** The answer to one request: [body, content type]. */
function answer(text) {
  const message = JSON.parse(text);
  const key = `${message.method} ${message.params?.name ?? ""}`;
  const parts = answers[message.params?._meta ? key : `2025-11-25 ${key}`];
  if (!parts) {
    return [`{"jsonrpc":"2.0","id":${JSON.stringify(message.id ?? null)},"error":{"code":-32601,"message":"Method not found"}}`, JSON_TYPE];
  }
  return [parts[0] + JSON.stringify(message.id) + parts[1], parts[2] ?? JSON_TYPE];
}

if (process.argv.includes("--stdio")) {
  let rest = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) if (line !== "") out += `${answer(line)[0]}\n`;
    if (out !== "") process.stdout.write(out);
  });
} else {
  // Answers leave at the end of the event loop's turn, all together, as
  // @x/server's node:http handler writes them: a write that wakes a sleeping
  // client costs the writer, so a ceiling that answered each request at once
  // would pay wake-ups @x does not, and stop being a ceiling (README, "Answers
  // written together").
  let due = [];
  const writeDue = () => {
    const list = due;
    due = [];
    for (let i = 0; i < list.length; i += 3) {
      list[i].writeHead(200, { "content-type": list[i + 2] });
      list[i].end(list[i + 1]);
    }
  };
  const http = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const [body, type] = answer(Buffer.concat(chunks).toString("utf8"));
      if (due.length === 0) setImmediate(writeDue);
      due.push(res, body, type);
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
