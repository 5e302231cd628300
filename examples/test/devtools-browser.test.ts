// The devtools page of @x/devtools in a real browser (Debian's headless
// Chromium driven by playwright-core): real clients of both eras call the
// example server while the page is open, tools are called from the page's
// forms and its elicitations answered there, and the page's guards refuse
// what is not the page. Every wait is for an element or an answer (a
// locator's waitFor, bounded by a timeout that only a failure reaches);
// every test saves a full-page screenshot under test-output/devtools.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client as OfficialClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client, StreamableHttpTransport } from "@x/client";
import { attachDevtools, type Devtools } from "@x/devtools";
import { listen } from "@x/server";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../../test-support/chromium.js";
import { createExampleServer } from "../src/tools.js";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "test-output", "devtools");
// Two bearer tokens, each a principal; neither string may reach the page.
const TOKEN_A = "tok-A-4f1c9e0b7d2a6e8c3b5d";
const TOKEN_B = "tok-B-9a7e2c4f6b1d8e0a5c3f";
const PRINCIPALS: Record<string, { subject: string; clientId: string; scopes: string[] }> = {
  [TOKEN_A]: { subject: "alice", clientId: "app-official", scopes: [] },
  [TOKEN_B]: { subject: "bob", clientId: "app-x", scopes: [] },
};
// Bounds every wait for the page: reached only when the page never shows what is awaited.
const WAIT = { timeout: 20_000 };

let server: ReturnType<typeof createExampleServer>;
let running: Awaited<ReturnType<typeof listen>>;
let devtools: Devtools;
let browser: Browser;
let page: Page;

const row = (selector: string) => page.locator(`[data-testid="traffic-row"]${selector}`);
const shot = (name: string) => page.screenshot({ path: join(OUT, `${name}.png`), fullPage: true });

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  const executablePath = chromiumPath(); // installs Debian's package when missing (CI runs as root)
  server = createExampleServer();
  running = await listen(server, {
    host: "127.0.0.1",
    port: 0,
    auth: {
      verifyAccessToken: (token: string) => PRINCIPALS[token],
      resourceMetadata: { resource: "http://127.0.0.1/mcp", authorizationServers: ["https://as.example"] },
    },
  });
  devtools = await attachDevtools(server, { print: false });
  browser = await chromium.launch({ executablePath });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(devtools.url);
  await page.locator('[data-testid="tab-traffic"]').waitFor(WAIT);
});

afterAll(async () => {
  await browser?.close();
  await devtools?.close();
  await running?.close();
});

/** Back to the Traffic tab, with the filters cleared. */
async function showTraffic(): Promise<void> {
  await page.locator('[data-testid="tab-traffic"]').click();
  await page.locator('[data-testid="search"]').fill("");
}

/** The Try it tab, in `era`, with the form of `tool` open. */
async function openTool(era: string, tool: string): Promise<void> {
  await page.locator('[data-testid="tab-try"]').click();
  await page.locator('[data-testid="era-select"]').selectOption(era);
  // The catalog of the era just chosen is drawn once its list answers; the item is then clicked.
  await page.locator(`[data-testid="tool-item"][data-name="${tool}"]`).click(WAIT);
  await page.locator('[data-testid="call-form"] [data-testid="call-submit"]').waitFor(WAIT);
}

describe("the devtools page", () => {
  it("loads at its URL, with both tabs", async () => {
    const tabs = page.locator('[role="tab"]');
    expect(await tabs.count()).toBe(2);
    expect(await page.locator('[data-testid="tab-try"]').getAttribute("role")).toBe("tab");
    await shot("page");
  });

  it("shows the calls of two real clients, each in its era and with its principal, and never a token", async () => {
    // The official client 2.4.0 in the earlier era (initialize, a session), token A.
    const official = new OfficialClient({ name: "official-sdk-client", version: "2.4.0" }, { capabilities: {} });
    await official.connect(
      new StreamableHTTPClientTransport(new URL(running.url), { requestInit: { headers: { authorization: `Bearer ${TOKEN_A}` } } }),
    );
    expect(official.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    expect((await official.callTool({ name: "add", arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
    await official.close();
    // @x/client in 2026-07-28, token B.
    const modern = new Client({ name: "x-client-b", version: "1.0.0" });
    await modern.connect(new StreamableHttpTransport(running.url, { headers: { authorization: `Bearer ${TOKEN_B}` } }));
    expect((await modern.callTool("add", { a: 20, b: 22 })).structuredContent).toEqual({ sum: 42 });
    await modern.close();

    const old = row('[data-method="tools/call"][data-tool="add"][data-client="official-sdk-client"]');
    const now = row('[data-method="tools/call"][data-tool="add"][data-client="x-client-b"]');
    await old.locator('xpath=self::*[@data-outcome="ok"]').waitFor(WAIT);
    await now.locator('xpath=self::*[@data-outcome="ok"]').waitFor(WAIT);
    expect(await old.count()).toBe(1);
    expect(await now.count()).toBe(1);
    expect(await old.getAttribute("data-era")).toBe("initialize");
    expect(await old.getAttribute("data-protocol-version")).toBe("2025-11-25");
    expect(await old.getAttribute("data-subject")).toBe("alice");
    expect(await old.getAttribute("data-client-id")).toBe("app-official");
    expect(await old.getAttribute("data-transport")).toBe("http");
    expect(await now.getAttribute("data-era")).toBe("2026-07-28");
    expect(await now.getAttribute("data-protocol-version")).toBe("2026-07-28");
    expect(await now.getAttribute("data-subject")).toBe("bob");
    expect(await now.getAttribute("data-client-id")).toBe("app-x");
    const text = await now.textContent();
    for (const part of ["tools/call", "add", "2026-07-28", "bob", "app-x", "HTTP 200"]) expect(text).toContain(part);
    expect(await old.textContent()).toContain("alice");
    // Open both rows so that their details (params, responses, raw events) are in the page too.
    await old.click();
    await now.click();
    await now.locator('[data-testid="row-details"]').waitFor(WAIT);
    const html = await page.content();
    expect(html).not.toContain(TOKEN_A);
    expect(html).not.toContain(TOKEN_B);
    expect(html).not.toContain("Bearer");
    await shot("two-clients");
    // needs the server taps of i42-srv: the initialize exchange is a row of its own. It came before the
    // call on the same stream of events, so it is drawn by now.
    const opened = row('[data-method="initialize"][data-era="initialize"][data-outcome="ok"][data-subject="alice"]');
    expect(await opened.count()).toBeGreaterThanOrEqual(1);
    expect(await opened.first().getAttribute("data-protocol-version")).toBe("2025-11-25");
  });

  it("shows a two-question Multi Round-Trip call as one row of three rounds, with its requestState decoded", async () => {
    const client = new Client(
      { name: "x-client-booking", version: "1.0.0" },
      {
        handlers: {
          elicitation: async (params) => ({
            action: "accept",
            content: String(params.message).startsWith("How many") ? { people: 6 } : ({ time: "21:00" } as Record<string, string | number>),
          }),
        },
      },
    );
    await client.connect(new StreamableHttpTransport(running.url, { headers: { authorization: `Bearer ${TOKEN_B}` } }));
    const booked = await client.callTool("book_table", { restaurant: "Noma" });
    expect(booked.content).toEqual([{ type: "text", text: "Booked Noma for 6 at 21:00." }]);
    await client.close();

    const booking = row('[data-tool="book_table"][data-client="x-client-booking"]');
    await booking.locator('xpath=self::*[@data-rounds="3"][@data-outcome="ok"]').waitFor(WAIT);
    expect(await booking.count()).toBe(1);
    expect(await booking.getAttribute("data-era")).toBe("2026-07-28");
    await booking.click();
    await booking.locator('[data-testid="row-details"]').waitFor(WAIT);
    const rounds = booking.locator('[data-testid="round"]');
    expect(await rounds.count()).toBe(3);
    expect(await rounds.evaluateAll((els) => els.map((e) => e.getAttribute("data-round")))).toEqual(["1", "2", "3"]);
    // Round 1 asks the party size; round 2 carries its answer and asks the time; round 3 answers that.
    expect(await rounds.nth(0).textContent()).toContain("How many people for Noma?");
    expect(await rounds.nth(1).textContent()).toContain("What time?");
    expect(await rounds.nth(2).textContent()).toContain("21:00");
    await shot("multi-round-trip");
    // Rounds 2 and 3 send the requestState the round before issued, decoded with the server's key.
    const states = booking.locator('[data-testid="request-state"]');
    expect(await states.count()).toBeGreaterThanOrEqual(2);
    // needs the server taps of i42-srv: readRequestState verifies the state with the server's key.
    for (const text of await states.allInnerTexts()) {
      expect(text).toContain("verified");
      expect(text).not.toContain("NOT verified");
    }
    expect(await rounds.nth(2).locator('[data-testid="request-state"]').first().textContent()).toContain("people");
  });

  it("calls a tool from its generated form and renders its structured result, checked against the output schema", async () => {
    await openTool("2026-07-28", "add");
    const a = page.locator('[data-testid="call-form"] [data-field="a"]');
    expect(await a.getAttribute("required")).not.toBeNull();
    expect(await a.getAttribute("aria-required")).toBe("true");
    await a.fill("19");
    await page.locator('[data-testid="call-form"] [data-field="b"]').fill("23");
    await page.locator('[data-testid="call-submit"]').click();
    const result = page.locator('[data-testid="result"]');
    await result.waitFor(WAIT);
    expect(await result.getAttribute("data-is-error")).toBe("false");
    const nodes = page.locator('[data-testid="structured"] [data-testid="tree-node"]');
    expect(await nodes.allInnerTexts()).toContain("sum: 42");
    expect(await page.locator('[data-testid="schema-check"]').getAttribute("data-valid")).toBe("true");
    await shot("try-add");

    // An enum and a nested object: units takes { action: "convert" | "units", data: {...} }.
    await openTool("2026-07-28", "units");
    const action = page.locator('[data-testid="call-form"] [data-field="action"]');
    expect(await action.evaluate((el) => el.tagName)).toBe("SELECT");
    expect(await action.locator("option").allInnerTexts()).toEqual(expect.arrayContaining(["convert", "units"]));
    await action.selectOption("units");
    await page.locator('[data-testid="call-form"] [data-field="data"]').fill('{"kind":"mass"}');
    await page.locator('[data-testid="call-submit"]').click();
    await page.locator('[data-testid="result"] [data-testid="block"][data-kind="text"]').first().waitFor(WAIT);
    expect(await page.locator('[data-testid="result"]').getAttribute("data-is-error")).toBe("false");
    expect(await page.locator('[data-testid="result"]').textContent()).toContain("kg");
    await shot("try-units");
  });

  for (const era of ["2026-07-28", "2025-11-25"]) {
    it(`answers an elicitation in the page (${era})`, async () => {
      await openTool(era, "book_table");
      await page.locator('[data-testid="call-form"] [data-field="restaurant"]').fill(`Chez ${era}`);
      await page.locator('[data-testid="call-submit"]').click();
      const dialog = page.locator('[data-testid="ask-dialog"]');
      const message = dialog.locator('[data-testid="ask-message"]');
      await message.filter({ hasText: `How many people for Chez ${era}?` }).waitFor(WAIT);
      expect(await dialog.getAttribute("role")).toBe("dialog");
      await dialog.locator('[data-field="people"]').fill("3");
      await shot(`ask-people-${era}`);
      await dialog.locator('[data-testid="ask-accept"]').click();
      await message.filter({ hasText: "What time?" }).waitFor(WAIT);
      await dialog.locator('[data-field="time"]').selectOption("19:30");
      await dialog.locator('[data-testid="ask-accept"]').click();
      const block = page.locator('[data-testid="result"] [data-testid="block"][data-kind="text"]');
      await block.filter({ hasText: `Booked Chez ${era} for 3 at 19:30.` }).waitFor(WAIT);
      await dialog.waitFor({ state: "hidden", ...WAIT });
      await shot(`ask-answered-${era}`);
    });
  }

  it("is usable with the keyboard: Enter opens a row, Escape cancels an ask", async () => {
    await showTraffic();
    await row("").first().waitFor(WAIT);
    // From the toolbar's last button, Tab reaches the first row (a bounded count of presses).
    await page.locator('[data-testid="clear"]').focus();
    const focused = page.locator('[data-testid="traffic-row"]:focus');
    for (let presses = 0; presses < 10 && (await focused.count()) === 0; presses++) await page.keyboard.press("Tab");
    expect(await focused.count()).toBe(1);
    expect(await focused.getAttribute("data-row-id")).toBe(await row("").first().getAttribute("data-row-id"));
    const wasOpen = await focused.getAttribute("aria-expanded");
    await page.keyboard.press("Enter");
    await focused.locator(`xpath=self::*[@aria-expanded="${wasOpen === "true" ? "false" : "true"}"]`).waitFor(WAIT);
    await shot("keyboard-row");

    await openTool("2026-07-28", "book_table");
    await page.locator('[data-testid="call-form"] [data-field="restaurant"]').fill("Escape");
    await page.keyboard.press("Enter");
    const dialog = page.locator('[data-testid="ask-dialog"]');
    await dialog.locator('[data-testid="ask-message"]').filter({ hasText: "How many people for Escape?" }).waitFor(WAIT);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden", ...WAIT });
    // A cancelled question ends the tool's call without a booking.
    await page.locator('[data-testid="result"]').filter({ hasText: "No booking made." }).waitFor(WAIT);
    await shot("keyboard-escape");
  });

  it("says the filters hide every row, not that there is no traffic, when a search matches none", async () => {
    await showTraffic();
    await row("").first().waitFor(WAIT);
    await page.locator('[data-testid="search"]').fill("no-row-has-this-text-7f3a");
    const empty = page.locator(".traffic .empty");
    await empty.filter({ hasText: "No row matches the filters" }).waitFor(WAIT);
    expect(await empty.textContent()).not.toContain("No traffic yet");
    await shot("filtered-empty");
    await page.locator('[data-testid="search"]').fill("");
  });

  it("lists a resource and a template by their names, beside their URIs", async () => {
    await page.locator('[data-testid="tab-try"]').click();
    const readme = page.locator('[data-testid="resource-item"][data-uri="file:///readme.md"]');
    await readme.waitFor(WAIT);
    expect((await readme.textContent())?.trim()).toBe("readme file:///readme.md");
    const unit = page.locator('[data-testid="template-item"][data-uri-template="units://{unit}"]');
    expect((await unit.textContent())?.trim()).toBe("unit units://{unit}");
  });

  it("refuses a missing or wrong token, a foreign Origin and a foreign Host with 403", async () => {
    const url = new URL(devtools.url);
    const token = url.pathname.split("/")[1] as string;
    const at = (path: string) => new URL(path, url.origin).href;
    const status = async (href: string, headers: Record<string, string> = {}) => (await fetch(href, { headers })).status;
    expect(await status(at("/"))).toBe(403);
    expect(await status(at("/api/info"))).toBe(403);
    expect(await status(at(`/${"x".repeat(token.length)}/`))).toBe(403);
    expect(await status(at(`/${"x".repeat(token.length)}/api/info`))).toBe(403);
    expect(await status(at(`/${token}/api/info`), { origin: "http://evil.example" })).toBe(403);
    expect(await status(at(`/${token}/api/info`), { origin: "null" })).toBe(403);
    // fetch sets Host itself; a raw request carries a foreign one.
    const { request } = await import("node:http");
    const foreignHost = await new Promise<number>((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path: `/${token}/api/info`, headers: { host: "evil.example" } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.end();
    });
    expect(foreignHost).toBe(403);
    // The right URL, with the page's own origin, answers.
    expect(await status(at(`/${token}/api/info`), { origin: url.origin })).toBe(200);
    // From the browser too: a missing token is a 403 page, the page's own URL loads.
    const other = await browser.newPage();
    try {
      expect((await other.goto(at("/")))?.status()).toBe(403);
      expect((await other.goto(at("/api/info")))?.status()).toBe(403);
      expect((await other.goto(devtools.url))?.status()).toBe(200);
      await other.locator('[data-testid="tab-traffic"]').waitFor(WAIT);
      await other.screenshot({ path: join(OUT, "refusals.png"), fullPage: true });
    } finally {
      await other.close();
    }
  });
});
