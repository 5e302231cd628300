// @x/client on workerd: a Worker whose `fetch` runs drive.mjs against the
// endpoint in the request's `url` query parameter (in the era of its
// `protocol` parameter) and answers what it saw as JSON, or a 500 with the
// error. Bundled and run by test/runtimes.test.ts like scripts/worker.mjs.
import { drive } from "./drive.mjs";

export default {
  async fetch(request) {
    const query = new URL(request.url).searchParams;
    try {
      return Response.json(await drive(query.get("url"), query.get("protocol") ?? undefined, `workerd (${navigator.userAgent})`));
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
