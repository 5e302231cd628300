// @x/client on Bun or Deno: connects to the Streamable HTTP endpoint given
// as the first argument (in the era given as the second, default the
// newest), discovers it, lists the tools, calls `add` (its structuredContent is checked
// against the tool's outputSchema here, on this runtime), answers
// book_table's questions, and prints what it saw as one JSON line on stdout.
import { Client, StreamableHttpTransport } from "@x/client";

const args = globalThis.Deno ? globalThis.Deno.args : process.argv.slice(2);
const [url, protocol] = args;
const runtime = globalThis.Bun ? `bun ${globalThis.Bun.version}` : globalThis.Deno ? `deno ${globalThis.Deno.version.deno}` : "other";

const answers = { people: 3, time: "19:30" };
const client = new Client(
  { name: "runtime-client", version: "1" },
  {
    protocol,
    // The example's book_table asks for `people`, then for `time`: answer each field the form asks for.
    waitFor: async (request) => {
      const fields = Object.keys(request.data?.schema?.properties ?? {});
      return { id: request.id, ok: true, data: Object.fromEntries(fields.map((f) => [f, answers[f]])) };
    },
  },
);
await client.connect(new StreamableHttpTransport(url));
try {
  // connect learns the server's identity unless the era was given and needs no probe.
  if (client.serverInfo === undefined) await client.discover();
  const tools = (await client.listAllTools()).map((t) => t.name).sort();
  const add = await client.callTool("add", { a: 2, b: 40 });
  const booked = await client.callTool("book_table", { restaurant: "Noma" });
  console.log(
    JSON.stringify({
      runtime,
      protocol: client.protocolVersion,
      server: client.serverInfo?.name,
      tools,
      add: add.structuredContent,
      booked: booked.content,
    }),
  );
} finally {
  await client.close();
}
