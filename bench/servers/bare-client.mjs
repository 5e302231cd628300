// The bare responder of the client rows and the cost-growth rows: the bytes
// @x/server answered for each request (captured by the script that starts
// it), with the request's id put in, as bare.mjs does, and what a client's
// connection also needs: notifications are taken without an answer (202 over
// HTTP, nothing over stdio), a GET or DELETE is answered 405, and a body that
// is no JSON-RPC request 400. It serves both a client's connect (the
// `server/discover` probe, `tools/list`) and its calls.
//
//   node bare-client.mjs ANSWERS.json           node:http on 127.0.0.1, a free port; prints {"url": ...}
//   node bare-client.mjs ANSWERS.json --stdio   one answer line per request line
//
// ANSWERS.json maps "method name" (e.g. "tools/call echo", "server/discover ")
// to [the text before the id, the text after it, its content type]. With an
// IPC channel it answers {type: "counts"} with the requests seen per key.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const answers = JSON.parse(readFileSync(process.argv[2], "utf8"));
const JSON_TYPE = "application/json";
const counts = {};

/** The answer to one message: [body, content type], or undefined for a notification. */
function answer(text) {
  let message;
  try {
    message = JSON.parse(text);
  } catch {
    return [`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}`, JSON_TYPE, 400];
  }
  const key = `${message.method} ${message.params?.name ?? ""}`;
  counts[key] = (counts[key] ?? 0) + 1;
  if (message.id === undefined) return undefined;
  const parts = answers[key];
  if (!parts) {
    return [`{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"error":{"code":-32601,"message":"Method not found"}}`, JSON_TYPE, 200];
  }
  return [parts[0] + JSON.stringify(message.id) + parts[1], parts[2] ?? JSON_TYPE, 200];
}

if (process.send) {
  process.on("message", (message) => {
    if (message?.type === "counts") process.send({ type: "counts", seq: message.seq, counts });
  });
  process.channel?.unref();
}

if (process.argv.includes("--stdio")) {
  let rest = "";
  process.stdin.setEncoding("utf8");
  process.stdin.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    let out = "";
    for (const line of lines) {
      if (line === "") continue;
      const a = answer(line);
      if (a) out += `${a[0]}\n`;
    }
    if (out !== "") process.stdout.write(out);
  });
  process.stdin.on("end", () => process.exit(0));
} else {
  // Answers leave at the end of the turn, together, as in bare.mjs (and @x/server).
  let due = [];
  const writeDue = () => {
    const list = due;
    due = [];
    for (let i = 0; i < list.length; i += 2) {
      const [body, type, status] = list[i + 1];
      list[i].writeHead(status, { "content-type": type });
      list[i].end(body);
    }
  };
  const http = createServer((req, res) => {
    if (req.method !== "POST") {
      res.writeHead(405, { allow: "POST" });
      res.end();
      req.resume();
      return;
    }
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      const a = answer(Buffer.concat(chunks).toString("utf8"));
      if (!a) {
        res.writeHead(202);
        res.end();
        return;
      }
      if (due.length === 0) setImmediate(writeDue);
      due.push(res, a);
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
