/**
 * Horizontal scale: two server processes that share one requestState key,
 * behind nginx balancing round-robin on loopback. A retry that lands on the
 * other process completes; a state sealed with a different key is refused.
 * nginx comes from Debian's package; it is installed here when missing
 * (as root, as on CI), else the test says how to install it.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { headersFor, meta } from "./helpers.js";

const fixture = resolve("test/fixtures/scale-server.mjs");
const children: ChildProcess[] = [];

function nginxBinary(): string {
  const found = spawnSync("sh", ["-c", "command -v nginx || ls /usr/sbin/nginx 2>/dev/null"], { encoding: "utf8" })
    .stdout.trim()
    .split("\n")[0];
  if (found) return found;
  if (process.getuid?.() !== 0)
    throw new Error("nginx is missing: install Debian's nginx-light (apt-get install nginx-light) to run this test");
  execFileSync(
    "sh",
    [
      "-c",
      "apt-get install -y -qq --no-install-recommends nginx-light >/dev/null 2>&1 || (apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq --no-install-recommends nginx-light >/dev/null 2>&1)",
    ],
    {
      timeout: 240_000,
    },
  );
  return "/usr/sbin/nginx";
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

async function startInstance(name: string, key: Buffer): Promise<string> {
  const child = spawn(process.execPath, [fixture], {
    env: { ...process.env, INSTANCE: name, MCP_REQUEST_STATE_KEYS: key.toString("base64") },
    stdio: ["ignore", "ignore", "pipe"],
  });
  children.push(child);
  let seen = "";
  return new Promise((res, rej) => {
    child.stderr!.on("data", (c) => {
      seen += String(c);
      const m = /listening on (\S+)/.exec(seen);
      if (m) res(m[1]!);
    });
    child.once("exit", (code) => rej(new Error(`instance ${name} exited with ${code}: ${seen}`)));
  });
}

let front: string;
let direct: { a: string; b: string; other: string };

beforeAll(async () => {
  const nginx = nginxBinary();
  const shared = Buffer.alloc(32, 42);
  const a = await startInstance("A", shared);
  const b = await startInstance("B", shared);
  const other = await startInstance("C", Buffer.alloc(32, 43));
  direct = { a, b, other };
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "x-mcp-nginx-"));
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  const upstream = [a, b].map((u) => `server ${new URL(u).host};`).join(" ");
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 64; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream mcp { ${upstream} }
  server { listen 127.0.0.1:${port}; location / { proxy_pass http://mcp; proxy_http_version 1.1; proxy_set_header Host $host; proxy_buffering off; } }
}
`,
  );
  const proxy = spawn(nginx, ["-c", join(dir, "nginx.conf"), "-p", dir], { stdio: ["ignore", "ignore", "pipe"] });
  children.push(proxy);
  front = `http://127.0.0.1:${port}/mcp`;
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(front, { method: "GET" }).then(
      (r) => r.status === 405,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 300_000);

afterAll(async () => {
  for (const child of children) {
    if (child.exitCode === null && child.pid) {
      process.kill(child.pid, "SIGTERM");
      await once(child, "exit");
    }
  }
});

async function call(url: string, id: number, extra: Record<string, unknown> = {}) {
  const body = {
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "greet", arguments: {}, ...extra, _meta: meta({ "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } }) },
  };
  const response = await fetch(url, { method: "POST", headers: headersFor(body), body: JSON.stringify(body) });
  return (await response.json()) as any;
}

describe("two instances sharing a key behind nginx (round-robin)", () => {
  it("a retry that lands on the other instance completes", async () => {
    const first = await call(front, 1);
    expect(first.result.resultType).toBe("input_required");
    const asker = /asked by (\w)/.exec(first.result.inputRequests["elicit-1"].params.message)![1];
    const second = await call(front, 2, {
      inputResponses: { "elicit-1": { action: "accept", content: { name: "Ray" } } },
      requestState: first.result.requestState,
    });
    const answerer = /answered by (\w)/.exec(second.result.content[0].text)![1];
    expect(second.result.content[0].text).toMatch(/^Hello Ray/);
    expect(answerer).not.toBe(asker);
  });

  it("a state signed with a different key is refused", async () => {
    const first = await call(direct.other, 3);
    const retry = await call(front, 4, {
      inputResponses: { "elicit-1": { action: "accept", content: { name: "Ray" } } },
      requestState: first.result.requestState,
    });
    expect(retry.error).toMatchObject({ code: -32602, message: "Invalid requestState: failed verification" });
    const fromA = await call(direct.a, 5);
    const onC = await call(direct.other, 6, {
      inputResponses: { "elicit-1": { action: "decline" } },
      requestState: fromA.result.requestState,
    });
    expect(onC.error.code).toBe(-32602);
  });
});
