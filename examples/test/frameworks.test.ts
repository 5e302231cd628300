// The example server mounted in real web frameworks (test/mounts.ts: Express 4
// and 5 with and without express.json(), Hono, Fastify), each driven over HTTP
// in both eras by @x/client and by the official @modelcontextprotocol/client
// 2.4.0: discover, list the tools, call them (with an argument check), and
// answer book_table's two questions (elicitation). Next.js, which needs a
// build, is in next.test.ts.
import { describe, it } from "vitest";
import { driveInitialize, driveModern, driveOfficial } from "./drive.js";
import { frameworks, type Mounted } from "./mounts.js";

async function against(mount: () => Promise<Mounted>, drive: (url: string) => Promise<void>): Promise<void> {
  const mounted = await mount();
  try {
    await drive(mounted.url);
  } finally {
    await mounted.stop();
  }
}

describe.each(frameworks)("%s", (_name, mount) => {
  it("@x/client, 2026-07-28: discover, list, call with an argument check, an elicitation round, a task", () => against(mount, driveModern));

  it("@x/client, initialize era: a session, elicitation/create on the session", () => against(mount, driveInitialize));

  it("official client 2.4.0, 2026-07-28 pinned: discover, list, calls, the argument check, a two-question elicitation", () =>
    against(mount, (url) => driveOfficial(url, "2026-07-28")));

  it("official client 2.4.0, its defaults (initialize era): the same on a session", () =>
    against(mount, (url) => driveOfficial(url, "initialize")));
});
