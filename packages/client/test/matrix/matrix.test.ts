// The interop matrix: @x/client in each mode (protocol "auto" and every pin)
// against each peer (peers.ts). A cell connects, checks the version spoken,
// lists and calls a tool, answers an elicitation and a sampling request
// where the peer can send them (the tool's result shows the server saw the
// answer), calls a task-required tool where the peer has one, then closes.
// A cell that cannot pass yet is skipped with the feature or bug that holds
// it back (docs/client.md "Interop" lists the table).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CallToolResult, Client, type ClientOptions, type ElicitRequestParams, type ElicitResult } from "../../src/index.js";
import { type Call, PEERS, type Peer, type Started, type Version } from "./peers.js";

/** A client mode: `auto`, or pinned to one version; `pending` names the feature that enables it. */
interface Mode {
  mode: "auto" | Version;
  pending?: string;
}

// One line per mode.
const MODES: Mode[] = [
  { mode: "auto" },
  { mode: "2026-07-28" },
  { mode: "2025-11-25" },
  { mode: "2025-06-18" },
  { mode: "2025-03-26" },
  { mode: "2024-11-05" },
];

const MODEL_SAYS = "hi from the client's model";

/**
 * Elicitation is defined from 2025-06-18 on (its client/elicitation page); a
 * client pinned earlier declares none, so its cells skip that step.
 */
const hasElicitation = (version: Version): boolean => version !== "2025-03-26" && version !== "2024-11-05";

/** Answers a form with the first choice of each required field, and "octocat" for free text. */
function answerForm(params: ElicitRequestParams): ElicitResult {
  if (!("requestedSchema" in params)) return { action: "decline" };
  const schema = params.requestedSchema as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const content: Record<string, string> = {};
  for (const key of schema.required ?? []) {
    const property = schema.properties?.[key] ?? {};
    const choices = (property.oneOf as { const: string }[] | undefined)?.map((c) => c.const) ?? (property.enum as string[] | undefined);
    content[key] = choices?.[0] ?? "octocat";
  }
  return { action: "accept", content };
}

function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

async function calls(client: Client, call: Call): Promise<void> {
  const result = await client.callTool(call.tool, call.args ?? {});
  expect(result.isError ?? false, textOf(result)).toBe(false);
  expect(textOf(result)).toContain(call.says);
}

async function cell(peer: Peer, started: Started, mode: Mode["mode"]): Promise<void> {
  const pinned = mode === "auto" ? undefined : mode;
  const version = pinned ?? peer.auto;
  const asked = { elicitation: 0, sampling: 0 };
  const options: ClientOptions = {
    protocol: mode as ClientOptions["protocol"],
    onWarning: () => {},
    handlers: {
      elicitation: (params) => {
        asked.elicitation++;
        return answerForm(params);
      },
      sampling: () => {
        asked.sampling++;
        return { role: "assistant", content: { type: "text", text: MODEL_SAYS }, model: "matrix-model" };
      },
    },
  };
  const client = new Client({ name: "x-matrix", version: "1.0.0" }, options);
  try {
    await client.connect(await started.transport(pinned));
    await client.listTools();
    expect(client.protocolVersion).toBe(version);
    expect(client.era).toBe(version === "2026-07-28" ? "modern" : "legacy");
    const names = (await client.listAllTools()).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(peer.lists));
    await calls(client, peer.call);
    const elicit = hasElicitation(version) ? peer.elicit?.(version) : undefined;
    if (elicit) {
      await calls(client, elicit);
      expect(asked.elicitation).toBeGreaterThan(0);
    }
    const sample = peer.sample?.(version);
    if (sample) {
      await calls(client, sample);
      expect(asked.sampling).toBeGreaterThan(0);
    }
  } finally {
    await client.close();
  }
}

for (const peer of PEERS) {
  describe(peer.name, () => {
    let started: Started | undefined;
    beforeAll(async () => {
      started = await peer.start();
    });
    afterAll(async () => {
      await started?.stop();
    });

    for (const { mode, pending } of MODES) {
      if (mode !== "auto" && !peer.speaks.includes(mode)) continue;
      const why = pending ?? peer.pending?.[mode];
      const elicits = peer.elicit && hasElicitation(mode === "auto" ? peer.auto : mode);
      const title = `${mode}: connect, list, call${elicits ? ", elicitation" : ""}${peer.sample ? ", sampling" : ""}`;
      // Skipped: `why` names the feature (or the client bug) this cell waits for.
      (why ? it.skip : it)(why ? `${title} (waits for ${why})` : title, async () => {
        await cell(peer, started!, mode);
      });
    }

    if (peer.task) {
      const task = peer.task;
      for (const mode of ["auto", "2025-11-25"] as const) {
        it(`${mode}: ${task.tool} (taskSupport "required") to its result, answering its elicitation`, async () => {
          let asked = 0;
          const client = new Client(
            { name: "x-matrix", version: "1.0.0" },
            {
              protocol: mode,
              onWarning: () => {},
              handlers: {
                elicitation: (params) => {
                  asked++;
                  return answerForm(params);
                },
              },
            },
          );
          try {
            await client.connect(await started!.transport(mode === "auto" ? undefined : mode));
            await calls(client, task);
            expect(asked).toBe(1);
          } finally {
            await client.close();
          }
        });
      }
    }
  });
}
