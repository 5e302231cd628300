// The example server as a Next.js App Router route handler at /mcp: the few
// lines of packages/server/README.md ("Frameworks"). No next.config is needed:
// Turbopack bundles the @x packages as they are (ESM with `exports`).
import { createFetchHandler } from "@x/server";
// The built example (examples/dist), as an app would import its own server module.
import { createExampleServer } from "../../../dist/tools.js";

const handler = createFetchHandler(createExampleServer());

// Never prerendered or cached: every request reaches the handler.
export const dynamic = "force-dynamic";
export const POST = (request: Request) => handler(request);
// The initialize era's session stream, and its end.
export const GET = POST;
export const DELETE = POST;
