/**
 * nginx as the round-robin balancer of the multi-process tests: Debian's
 * nginx-light (installed when missing, see debian.ts), one worker, its own
 * temporary folder, listening on 127.0.0.1 only, no response buffering
 * (SSE streams pass through as they are written).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { debianBinary } from "./debian.js";
import { freePort, stopProcess } from "./processes.js";

/** A running balancer. */
export interface Balancer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  child: ChildProcess;
  /** Stops nginx by its PID and removes its folder. */
  stop(): Promise<void>;
}

/**
 * Starts nginx balancing round-robin over `upstreams` (URLs; their host and
 * port count) and resolves once `probePath` answers through it with
 * anything but a gateway error (within about 10 s).
 * @throws (rejects) when nginx is missing and cannot be installed, or does not come up.
 */
export async function startBalancer(upstreams: readonly string[], probePath = "/mcp"): Promise<Balancer> {
  const nginx = debianBinary("nginx", "nginx-light");
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "x-mcp-nginx-"));
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, sub));
  const servers = upstreams.map((u) => `server ${new URL(u).host};`).join(" ");
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1; daemon off; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream mcp { ${servers} }
  server { listen 127.0.0.1:${port}; location / { proxy_pass http://mcp; proxy_http_version 1.1; proxy_set_header Host $host; proxy_buffering off; proxy_read_timeout 300s; } }
}
`,
  );
  const child = spawn(nginx, ["-c", join(dir, "nginx.conf"), "-p", dir], { stdio: ["ignore", "ignore", "pipe"] });
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopProcess(child);
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 200; i++) {
    const up = await fetch(origin + probePath, { method: "GET" }).then(
      (r) => r.status !== 502 && r.status !== 504,
      () => false,
    );
    if (up) return { origin, child, stop };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`nginx did not come up on ${origin}`);
}
