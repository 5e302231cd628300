// Tool icons and the server's icons and description are typed from the
// generated `Icon` and `Implementation` (checked by tsc in the vitest run).
import { describe, it } from "vitest";
import { McpServer } from "../../../src/index.js";

describe("icons on a tool and on the server", () => {
  it("takes icons and a description, and refuses a misspelt option", () => {
    const server = new McpServer({
      name: "s",
      version: "1",
      description: "A server",
      icons: [{ src: "https://example.com/s.png", sizes: ["48x48"], theme: "dark" }],
    });
    server.registerTool("t", { description: "d", icons: [{ src: "https://example.com/t.png", mimeType: "image/png" }] }, () => "t");
    // @ts-expect-error: `icon` is not an option
    server.registerTool("u", { description: "d", icon: [{ src: "https://example.com/t.png" }] }, () => "u");
    // @ts-expect-error: an icon needs its `src`
    server.registerTool("v", { icons: [{ mimeType: "image/png" }] }, () => "v");
    // @ts-expect-error: `theme` is "light" or "dark"
    new McpServer({ name: "s", version: "1", icons: [{ src: "https://example.com/s.png", theme: "blue" }] });
    // @ts-expect-error: `descripton` is not a member of the server's info
    new McpServer({ name: "s", version: "1", descripton: "A server" });
  });
});
