// Reads an npm tarball (gzip'd ustar, as `pnpm pack` writes it) in memory:
// the files it holds and their sizes, without unpacking it to disk.
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

function field(block, start, length) {
  const bytes = block.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString("utf8");
}

function octal(block, start, length) {
  const text = field(block, start, length).trim();
  return text === "" ? 0 : Number.parseInt(text, 8);
}

/** Parses the `path=` record of a pax extended header, if any. */
function paxPath(data) {
  const text = data.toString("utf8");
  const match = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text);
  return match ? match[1] : undefined;
}

/**
 * The regular files of the tarball at `path`: `{ packedBytes, files: [{ path, size, data }] }`,
 * each path without the leading `package/`. Throws on a malformed archive.
 */
export function readTarball(path) {
  const packed = readFileSync(path);
  const tar = gunzipSync(packed);
  const files = [];
  let offset = 0;
  let nextPath;
  // Bounded by the archive's length: every iteration advances by at least one 512-byte block.
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const data = tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      nextPath = paxPath(data) ?? nextPath;
      continue;
    }
    if (type === "L") {
      nextPath = field(data, 0, data.length);
      continue;
    }
    const prefix = field(header, 345, 155);
    const name = nextPath ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    nextPath = undefined;
    if (type !== "0" && type !== "7") continue;
    files.push({ path: name.replace(/^package\//, ""), size, data });
  }
  return { packedBytes: packed.length, files };
}
