// What scripts/client.mjs (Bun, Deno, Node 22) and scripts/worker-client.mjs
// (workerd) do with @x/client on their runtime: connect to the Streamable
// HTTP endpoint `url` (in the era `protocol`, default the newest), discover
// it, list the tools, call `add` (its structuredContent is checked against
// the tool's outputSchema here, on this runtime), answer book_table's
// questions, and return what it saw.
import { Client, StreamableHttpTransport } from "@x/client";

const answers = { people: 3, time: "19:30" };

export async function drive(url, protocol, runtime) {
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
    return {
      runtime,
      protocol: client.protocolVersion,
      server: client.serverInfo?.name,
      tools,
      add: add.structuredContent,
      booked: booked.content,
    };
  } finally {
    await client.close();
  }
}
