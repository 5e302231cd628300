// The devtools page in Firefox: Debian's Firefox ESR driven by puppeteer-core
// over WebDriver BiDi (playwright-core drives only its own Firefox build).
// The same page as the Chromium tests, one pass through what matters: a
// Multi Round-Trip call as one row of three rounds, a tool called from its
// form with its result checked, and an elicitation answered in the page.
// Every wait is for an element (bounded by a timeout only a failure reaches);
// screenshots go under test-output/devtools.
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client, StreamableHttpTransport } from "@x/client";
import { attachDevtools, type Devtools } from "@x/devtools";
import { listen } from "@x/server";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firefoxPath } from "../../test-support/chromium.js";
import { createExampleServer } from "../src/tools.js";

const OUT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "test-output", "devtools");
const WAIT = { timeout: 30_000 };

let running: Awaited<ReturnType<typeof listen>>;
let devtools: Devtools;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  const executablePath = firefoxPath(); // installs Debian's package when missing (CI runs as root)
  const server = createExampleServer();
  running = await listen(server, { host: "127.0.0.1", port: 0 });
  devtools = await attachDevtools(server, { print: false });
  browser = await puppeteer.launch({
    browser: "firefox",
    executablePath,
    headless: true,
    defaultViewport: null,
    args: ["--width=1280", "--height=900"],
  });
  page = await browser.newPage();
  await page.goto(devtools.url);
});

afterAll(async () => {
  await browser?.close();
  await devtools?.close();
  await running?.close();
});

describe("the devtools page in Firefox", () => {
  it("shows a Multi Round-Trip call as one row of three rounds, calls a tool from its form, and answers an elicitation", async () => {
    const answers: Record<string, string | number>[] = [{ people: 3 }, { time: "18:00" }];
    const client = new Client(
      { name: "firefox-test", version: "1" },
      { protocol: "2026-07-28", handlers: { elicitation: async () => ({ action: "accept" as const, content: answers.shift()! }) } },
    );
    await client.connect(new StreamableHttpTransport(running.url));
    try {
      await client.callTool("book_table", { restaurant: "Noma" });
    } finally {
      await client.close();
    }
    const booking = '[data-testid="traffic-row"][data-tool="book_table"][data-client="firefox-test"]';
    await page.waitForSelector(`${booking}[data-rounds="3"]`, WAIT);
    await page.click(booking);
    await page.waitForSelector(`${booking} [data-testid="round"][data-round="3"]`, WAIT);
    expect(await page.$$eval(`${booking} [data-testid="round"]`, (rounds) => rounds.length)).toBe(3);
    await page.screenshot({ path: join(OUT, "firefox-traffic.png") });

    await page.click('[data-testid="tab-try"]');
    await page.click('[data-testid="tool-item"][data-name="add"]');
    await page.type('[data-field="a"]', "19");
    await page.type('[data-field="b"]', "23");
    await page.click('[data-testid="call-submit"]');
    await page.waitForSelector('[data-testid="schema-check"][data-valid="true"]', WAIT);
    await page.waitForSelector('[data-testid="structured"] ::-p-text(sum: 42)', WAIT);
    await page.screenshot({ path: join(OUT, "firefox-form.png") });

    await page.click('[data-testid="tool-item"][data-name="book_table"]');
    await page.type('[data-field="restaurant"]', "Noma");
    await page.click('[data-testid="call-submit"]');
    await page.waitForSelector('[data-testid="ask-dialog"] [data-field="people"]', WAIT);
    await page.type('[data-testid="ask-dialog"] [data-field="people"]', "2");
    await page.click('[data-testid="ask-accept"]');
    await page.waitForSelector('[data-testid="ask-dialog"] [data-field="time"]', WAIT);
    await page.select('[data-testid="ask-dialog"] [data-field="time"]', "21:00");
    await page.click('[data-testid="ask-accept"]');
    await page.waitForSelector('[data-testid="result"] ::-p-text(Booked Noma for 2 at 21:00)', WAIT);
    await page.screenshot({ path: join(OUT, "firefox-ask.png") });
  });
});
