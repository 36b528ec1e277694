// Generate TypeScript declarations from the exported per-contract schema files.
//
// Usage: node gen-types.mjs EXPORT_DIR OUT_DIR
//
// Each contract of EXPORT_DIR/index.json becomes OUT_DIR/<its path below schemas/>.d.ts, e.g.
// schemas/agents/fixer_result.json -> OUT_DIR/agents/fixer_result.d.ts exporting FixerResult.
// Relative $ref are resolved by file, next to the schema that holds them.
import fs from "node:fs";
import path from "node:path";
import { compileFromFile } from "json-schema-to-typescript";

const [exportDir, outDir] = process.argv.slice(2);
if (!exportDir || !outDir) {
  console.error("usage: node gen-types.mjs EXPORT_DIR OUT_DIR");
  process.exit(2);
}
const index = JSON.parse(fs.readFileSync(path.join(exportDir, "index.json"), "utf-8"));
const written = [];
for (const [name, entry] of Object.entries(index.contracts).sort()) {
  const source = path.join(exportDir, entry.file);
  const ts = await compileFromFile(source, {
    bannerComment: `/* Generated from ${entry.file} (${entry.$id}) by json-schema-to-typescript. */`,
    format: false,
    strictIndexSignatures: true,
    additionalProperties: false,
  });
  const relative = path.relative("schemas", entry.file).replace(/\.json$/, ".d.ts");
  const target = path.join(outDir, relative);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, ts);
  written.push({ name, file: relative });
}
process.stdout.write(JSON.stringify(written));
