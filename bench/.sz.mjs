import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const r = await build({ entryPoints: [process.argv[2]], bundle: true, minify: true, platform: "node", format: "esm", target: "node20", write: false, logLevel: "error", metafile: true });
const code = r.outputFiles[0].contents;
console.log("gzip", gzipSync(code).length, "min", code.length);
