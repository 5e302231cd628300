import { channel } from "node:diagnostics_channel";
import { request as httpRequest } from "node:http";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { attachDevtools, type Devtools, MAX_BODY_BYTES, MAX_PAGES } from "../src/index.js";
import { fixtureServer } from "./fixture.js";

const opened: Devtools[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((d) => d.close()));
});

async function attach(options: Parameters<typeof attachDevtools>[1] = {}): Promise<Devtools> {
  const devtools = await attachDevtools(fixtureServer(), { print: false, ...options });
  opened.push(devtools);
  return devtools;
}

/** A request with the headers given as they are (fetch would set Host itself). */
function raw(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("error", reject);
    req.end();
  });
}

describe("who may open the page", () => {
  it("serves the page, its script and style under the token, with the security headers", async () => {
    const { url } = await attach();
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    expect(page.headers.get("referrer-policy")).toBe("no-referrer");
    expect(page.headers.get("cache-control")).toBe("no-store");
    const html = await page.text();
    expect(html).toContain("<title>Fixture · x-mcp devtools</title>");
    expect(html).toContain('src="app.js"');
    expect(html).toContain('href="app.css"');
    expect((await fetch(`${url}app.js`)).headers.get("content-type")).toMatch(/^text\/javascript/);
    expect((await fetch(`${url}app.css`)).headers.get("content-type")).toMatch(/^text\/css/);
  });

  it("refuses a missing token, a wrong one, a foreign Origin and a foreign Host with 403", async () => {
    const { url } = await attach({ token: "a-token-of-twenty-chars" });
    const root = new URL(url);
    expect((await fetch(`${root.origin}/`)).status).toBe(403);
    expect((await fetch(`${root.origin}/api/info`)).status).toBe(403);
    expect((await fetch(`${root.origin}/a-token-of-twenty-charX/api/info`)).status).toBe(403);
    expect((await fetch(`${root.origin}/a-token-of-twenty-char/api/info`)).status).toBe(403);
    expect((await fetch(`${url}api/info`, { headers: { origin: "http://evil.example" } })).status).toBe(403);
    expect((await fetch(`${url}api/info`, { headers: { origin: "null" } })).status).toBe(403);
    expect((await fetch(`${url}api/info`, { headers: { origin: root.origin } })).status).toBe(200);
    expect(await raw(`${url}api/info`, { host: "evil.example" })).toBe(403);
    expect(await raw(`${url}api/info`, { host: `evil.example:${root.port}` })).toBe(403);
    expect(await raw(`${url}api/info`, { host: `localhost:${root.port}` })).toBe(200);
  });

  it("answers 415, 413, 404 and 405 where the contract says", async () => {
    const { url } = await attach();
    const post = (body: string, type = "application/json") =>
      fetch(`${url}api/call`, { method: "POST", headers: { "content-type": type }, body });
    expect((await post("{}", "text/plain")).status).toBe(415);
    expect((await post(`"${"x".repeat(MAX_BODY_BYTES)}"`)).status).toBe(413);
    expect((await post("{not json")).status).toBe(400);
    expect((await post(JSON.stringify({ era: "1999-01-01", kind: "tool", name: "add" }))).status).toBe(400);
    expect((await fetch(`${url}api/nothing`)).status).toBe(404);
    const wrong = await fetch(`${url}api/call`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    expect((await fetch(`${url}api/info`, { method: "DELETE" })).status).toBe(405);
    expect((await fetch(`${url}api/catalog?era=nope`)).status).toBe(400);
    const unknownAsk = await fetch(`${url}api/asks/nope`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ action: "cancel" }),
    });
    expect(unknownAsk.status).toBe(404);
  });

  it(`answers the page number ${MAX_PAGES + 1} 429`, async () => {
    const { url } = await attach();
    const streams = await Promise.all(Array.from({ length: MAX_PAGES }, () => fetch(`${url}api/events`)));
    expect(streams.map((s) => s.status)).toEqual(Array(MAX_PAGES).fill(200));
    expect((await fetch(`${url}api/events`)).status).toBe(429);
    for (const stream of streams) await stream.body?.cancel();
  });

  it("tells what it serves", async () => {
    const { url } = await attach();
    const info = await (await fetch(`${url}api/info`)).json();
    expect(info).toEqual({
      server: { name: "fixture", version: "1.2.3", title: "Fixture" },
      eras: ["2026-07-28", "2025-11-25"],
      tokenPath: `${new URL(url).pathname}`,
    });
  });
});

describe("attachDevtools", () => {
  it("refuses a misspelt option, a non-loopback host, a short token and bad numbers", async () => {
    const server = fixtureServer();
    // @ts-expect-error: not an option
    await expect(attachDevtools(server, { maxEvent: 10 })).rejects.toThrow(/no option "maxEvent"; did you mean "maxEvents"/);
    // @ts-expect-error: not loopback
    await expect(attachDevtools(server, { host: "0.0.0.0" })).rejects.toThrow(TypeError);
    await expect(attachDevtools(server, { token: "short" })).rejects.toThrow(TypeError);
    await expect(attachDevtools(server, { maxEvents: 0 })).rejects.toThrow(RangeError);
    await expect(attachDevtools(server, { port: 70000 })).rejects.toThrow(RangeError);
    expect(channel("x-mcp:traffic").hasSubscribers).toBe(false);
  });

  it("prints the URL once, and close() leaves no subscriber and frees the port", async () => {
    const printed: string[] = [];
    const devtools = await attachDevtools(fixtureServer(), { print: (url) => printed.push(url) });
    expect(printed).toEqual([devtools.url]);
    expect(devtools.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/$/);
    expect(channel("x-mcp:traffic").hasSubscribers).toBe(true);
    const events = await fetch(`${devtools.url}api/events`);
    expect(events.status).toBe(200);
    await devtools.close();
    await devtools.close();
    expect(channel("x-mcp:traffic").hasSubscribers).toBe(false);
    // The stream was ended, and the port can be bound again.
    await expect(events.text()).resolves.toContain(": devtools");
    const port = Number(new URL(devtools.url).port);
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once("error", reject);
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve()));
    });
  });
});
