// The name of the package in a tarball made by `npm pack` or `pnpm pack`,
// read from its package/package.json (file names alone cannot tell `@x/server`
// from `x-server`). Node's zlib and a walk over the tar headers: no dependency.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

const BLOCK = 512;

/** The `name` of the package.json at the top of a package tarball (`.tgz`); throws when there is none. */
export function packageNameOf(path: string): string {
  const tar = gunzipSync(readFileSync(path));
  // Every entry is a 512-byte header then its data padded to 512 bytes; the loop ends at the archive's end.
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    const name = header.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    if (name === "") break;
    const size = Number.parseInt(header.subarray(124, 136).toString("utf8").replace(/\0.*$/s, "").trim() || "0", 8);
    const start = offset + BLOCK;
    // The top folder is "package/" for npm and pnpm; any single top folder is accepted.
    if (/^[^/]+\/package\.json$/.test(name)) {
      const manifest = JSON.parse(tar.subarray(start, start + size).toString("utf8")) as { name?: unknown };
      if (typeof manifest.name !== "string") throw new Error(`${path}: package.json has no name`);
      return manifest.name;
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  throw new Error(`${path}: no package.json at the top of the tarball`);
}
