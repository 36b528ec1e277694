// One schema through json-schema-to-typescript, as a new user runs it (its options as they are:
// formatted, so every member ends with ";"; nothing fetched from the network): the declarations
// on stdout. bench/bench_typed.py counts them.
//
// Usage: node compile-one.mjs SCHEMA_FILE
import path from "node:path";
import { compileFromFile } from "json-schema-to-typescript";

const [source] = process.argv.slice(2);
if (!source) {
  console.error("usage: node compile-one.mjs SCHEMA_FILE");
  process.exit(2);
}
const ts = await compileFromFile(source, {
  bannerComment: "",
  cwd: path.dirname(source),
  $refOptions: { resolve: { http: false } },
});
process.stdout.write(ts);
