// Where a handler's asks go (src/route.ts): one route per run, set by whoever runs it and finished when the
// run is over, in both eras; a run that becomes a task asks on the task's route from then on.
import { describe, expect, it } from "vitest";
import { McpServer, type RequestContext } from "../../src/index.js";
import { answerOf, open, post, rq, start } from "../legacy/helpers.js";

const nameSchema = { type: "object", properties: { name: { type: "string" } } } as const;

describe("ask routes", () => {
  it("on an initialize-era session, an ask from a promise that outlives the run is refused, and nothing is sent to the client", async () => {
    let detached: Promise<unknown> | undefined;
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const server = new McpServer({ name: "routes", version: "1" });
    server.registerTool("leaves", {}, (_args, ctx: RequestContext) => {
      // Asks once the answer below was sent: the run is over by then.
      detached = released.then(() => ctx.elicit("Late?", nameSchema));
      return "done";
    });
    const srv = await start(server);
    try {
      const session = await open(srv.url, { elicitation: {} });
      const answer = await answerOf(await post(srv.url, rq("tools/call", { name: "leaves", arguments: {} }), session.headers));
      expect(answer.result.content[0].text).toBe("done");
      release();
      await expect(detached).rejects.toThrow(/ctx\.elicit was called outside the handler's run/);
      expect(srv.legacy.session(session.id)?.pending).toBe(0);
    } finally {
      await srv.stop();
    }
  });
});
