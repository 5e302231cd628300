// One client under test, in a process of its own (forked by client.mjs, one
// process per measurement): it connects to the bare responder (over HTTP, or
// over stdio by spawning it), checks one tools/call echo answer, warms up,
// then keeps `inFlight` calls in flight for `durationMs` and answers over IPC
// with the calls completed, the seconds, and its own CPU time
// (process.cpuUsage: this process only, not the server's).
//
// Message: {client: "x" | "official", transport: "http" | "stdio", url, command, args, inFlight, durationMs, warmupMs}
const TEXT = "hello";

async function connect(message) {
  if (message.client === "x") {
    const { Client, StdioTransport, StreamableHttpTransport } = await import("@x/client");
    // The server is known to be of the 2026-07-28 era: no probe.
    const client = new Client({ name: "bench", version: "1.0.0" }, { protocol: "2026-07-28" });
    const transport =
      message.transport === "http"
        ? new StreamableHttpTransport(message.url)
        : new StdioTransport({ command: message.command, args: message.args, stderr: "inherit" });
    await client.connect(transport);
    return { call: () => client.callTool("echo", { text: TEXT }), close: () => client.close() };
  }
  const { Client, StreamableHTTPClientTransport } = await import("@modelcontextprotocol/client");
  // The official client speaks 2026-07-28 only when asked (its default is the initialize era): pinned.
  const client = new Client({ name: "bench", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  let transport;
  if (message.transport === "http") transport = new StreamableHTTPClientTransport(new URL(message.url));
  else {
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    transport = new StdioClientTransport({ command: message.command, args: message.args, stderr: "inherit" });
  }
  await client.connect(transport);
  return { call: () => client.callTool({ name: "echo", arguments: { text: TEXT } }), close: () => client.close() };
}

/** Keeps `inFlight` calls going until `ms` have passed (each worker stops after its call in progress). */
async function load(call, inFlight, ms) {
  const deadline = performance.now() + ms;
  let calls = 0;
  let failures = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      try {
        await call();
        calls++;
      } catch {
        failures++;
        if (failures > 100) throw new Error("more than 100 calls failed");
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { calls, failures };
}

process.once("message", async (message) => {
  try {
    const timer = setTimeout(() => {
      process.send({ error: "the client did not finish within 60 s" });
      process.exit(1);
    }, 60_000);
    const c = await connect(message);
    const first = await c.call();
    const text = first?.content?.[0]?.text;
    if (text !== TEXT) throw new Error(`wrong answer: ${JSON.stringify(first).slice(0, 300)}`);
    await load(c.call, message.inFlight, message.warmupMs);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await load(c.call, message.inFlight, message.durationMs);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    await c.close();
    clearTimeout(timer);
    process.send({
      result: {
        calls: r.calls,
        failures: r.failures,
        seconds,
        rps: r.calls / seconds,
        cpuUserUs: cpu.user,
        cpuSystemUs: cpu.system,
        cpuUsPerCall: (cpu.user + cpu.system) / r.calls,
      },
    });
  } catch (error) {
    process.send({ error: String(error?.stack ?? error) });
  }
  process.exit(0);
});
