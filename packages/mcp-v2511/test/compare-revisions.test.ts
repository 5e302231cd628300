/**
 * scripts/compare-revisions.mjs, which writes the "what changed" part of
 * docs/revisions.md: its type-level comparison on small made-up revisions,
 * and the committed document against a fresh run on the pinned ones.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./helpers.js";

type Shape = { kind: string };
type Revision = { revision: string; package: string; schema: { $defs: Record<string, any> }; sha256: string; types: string };
type Comparison = {
  added: string[];
  removed: string[];
  changed: { name: string; lines: string[] }[];
  validationOnly: { name: string; pointers: string[] }[];
  unchanged: number;
};
interface CompareModule {
  BEGIN: string;
  END: string;
  shapesOf(types: string): Map<string, Shape>;
  comparePair(older: Revision, newer: Revision): Comparison;
  replaceSection(doc: string, section: string): string;
  buildSection(): Promise<string>;
  checkDoc(): Promise<string[]>;
  revisionsWithPackages(): { revision: string; package: string }[];
}

const compare = (await import(pathToFileURL(join(repoRoot, "scripts/compare-revisions.mjs")).href)) as CompareModule;

const revision = (name: string, defs: Record<string, any>, types: string): Revision => ({
  revision: name,
  package: `pkg-${name}`,
  schema: { $defs: defs },
  sha256: "0".repeat(64),
  types,
});

const object = { type: "object" };

describe("compare-revisions on made-up revisions", () => {
  const older = revision(
    "2000-01-01",
    {
      Gone: object,
      Same: { ...object, description: "old words" },
      Tool: object,
      Kind: { enum: ["a", "b"] },
      Union: { anyOf: [{ $ref: "#/$defs/Same" }, { $ref: "#/$defs/Tool" }] },
      Link: { ...object, properties: { uri: { type: "string" } } },
    },
    `
/** Old doc. */
export interface Gone { x: string }
export interface Same { a: string; b?: number; [k: string]: JSONValue | undefined }
export interface Tool {
  name: string;
  /** removed later */
  title?: string;
  size?: number;
  caps: { listChanged?: boolean; nested: { deep: string } };
}
export type Kind = "a" | "b";
export type Union = Same | Tool;
export interface Link { uri: string }
export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue | undefined };
`,
  );
  const newer = revision(
    "2000-02-02",
    {
      Same: { ...object, description: "new words" },
      Tool: object,
      Kind: { enum: ["a", "c"] },
      Union: { anyOf: [{ $ref: "#/$defs/Tool" }, { $ref: "#/$defs/Same" }] },
      Link: { ...object, properties: { uri: { type: "string", format: "uri" } } },
      Fresh: object,
    },
    `
export interface Same { a: string; b?: number; [k: string]: JSONValue | undefined }
export interface Tool {
  name: string;
  size: string;
  icon?: string;
  caps: { listChanged?: boolean; nested: { deep: string; deeper?: number } };
}
export type Kind = "a" | "c";
export type Union = Tool | Same;
/** New doc. */
export interface Link { uri: string }
export interface Fresh { y: number }
export type JSONValue = string | number | boolean | null | JSONValue[] | { [key: string]: JSONValue | undefined };
`,
  );
  const result = compare.comparePair(older, newer);

  it("lists added and removed definitions by schema name", () => {
    expect(result.added).toEqual(["Fresh"]);
    expect(result.removed).toEqual(["Gone"]);
  });

  it("reports added and removed properties, required-ness and type changes, nested ones by path", () => {
    const tool = result.changed.find((c) => c.name === "Tool");
    expect(tool?.lines).toEqual([
      "added `icon` (optional): `string`",
      "removed `title` (was optional)",
      "`size`: optional → required",
      "`size`: type `number` → `string`",
      "added `caps.nested.deeper` (optional): `number`",
    ]);
  });

  it("reports union members added and removed, and ignores their order", () => {
    expect(result.changed.find((c) => c.name === "Kind")?.lines).toEqual(['union members added: `"c"`; union members removed: `"b"`']);
    expect(result.changed.map((c) => c.name)).not.toContain("Union");
  });

  it("ignores doc comments and descriptions, and lists validation-only changes apart", () => {
    expect(result.changed.map((c) => c.name).sort()).toEqual(["Kind", "Tool"]);
    expect(result.validationOnly).toEqual([{ name: "Link", pointers: ["/properties/uri/format"] }]);
    // Same and Union.
    expect(result.unchanged).toBe(2);
  });

  it("reads interfaces and type aliases of a types.ts", () => {
    const shapes = compare.shapesOf("export interface A { x?: string }\nexport type B = A | null;\nexport type C = A[];\n");
    expect([...shapes.keys()]).toEqual(["A", "B", "C"]);
    expect([...shapes.values()].map((s) => s.kind)).toEqual(["object", "union", "text"]);
  });

  it("replaces only the text between the markers", () => {
    const doc = `intro\n${compare.BEGIN}\nold\n${compare.END}\noutro\n`;
    expect(compare.replaceSection(doc, "new\n")).toBe(`intro\n${compare.BEGIN}\nnew\n${compare.END}\noutro\n`);
    expect(() => compare.replaceSection("no markers", "x")).toThrow(/lacks the markers/);
  });
});

describe("docs/revisions.md", () => {
  it("compares every revision that has a package, this one included", () => {
    const revisions = compare.revisionsWithPackages().map((r) => r.revision);
    expect(revisions).toContain("2025-11-25");
    expect(revisions).toEqual([...revisions].sort());
  });

  it("holds the comparison a fresh run makes (node scripts/compare-revisions.mjs)", async () => {
    expect(await compare.checkDoc()).toEqual([]);
    const section = await compare.buildSection();
    expect(section).toMatch(/^#### Removed: only in 2025-11-25 \(\d+\)$/m);
    expect(section).toMatch(/^- `InitializeRequest`: /m);
    expect(section).toContain("added `resultType` (required): `string`");
  }, 180_000);
});
