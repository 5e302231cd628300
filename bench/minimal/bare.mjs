// The bare responder's equivalent: node:http answering one fixed JSON-RPC result.
import { createServer } from "node:http";

createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"resultType":"complete","content":[{"type":"text","text":"hello"}]}}`);
  });
}).listen(0, "127.0.0.1");
