// An MCP client from another ecosystem: the official TypeScript SDK, over stdio.
//
// Usage: node mcp-client.mjs EXPORT_DIR CALLS_JSON -- COMMAND [ARGS...]
//
// Starts the server COMMAND over stdio, lists its tools, compares each tool's outputSchema
// and inputSchema with the exported self-contained files (index.json "tools"), calls every tool of CALLS_JSON
// ({"calls": [[tool, arguments], ...]}) and judges each structuredContent with Ajv (draft
// 2020-12, strict mode) twice: by the exported self-contained form and by the canonical
// per-contract files (and, as a control, refuses the document with one unknown key more).
// Prints one JSON report on stdout; the caller compares it field by field.
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const argv = process.argv.slice(2);
const split = argv.indexOf("--");
const [exportDir, callsFile] = argv.slice(0, split);
const [command, ...commandArgs] = argv.slice(split + 1);
if (split < 0 || !exportDir || !callsFile || !command) {
  console.error("usage: node mcp-client.mjs EXPORT_DIR CALLS_JSON -- COMMAND [ARGS...]");
  process.exit(2);
}
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf-8"));
const index = readJson(path.join(exportDir, "index.json"));
const { calls } = readJson(callsFile);

// Key order does not matter in JSON Schema: compare documents with sorted keys.
const canonical = (value) =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === "object"
      ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical(value[k])]))
      : value;
const same = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

const warnings = [];
const logger = {
  log: () => {},
  warn: (...args) => warnings.push(args.join(" ")),
  error: (...args) => warnings.push(args.join(" ")),
};
const ajv = () => new Ajv2020({ strict: true, allowUnionTypes: true, logger });
const fromFiles = ajv();
for (const entry of Object.values(index.contracts)) {
  fromFiles.addSchema(readJson(path.join(exportDir, entry.file)));
}
const byForm = {};
const byFile = {};
for (const [tool, entry] of Object.entries(index.tools)) {
  byForm[tool] = ajv().compile(readJson(path.join(exportDir, entry.structured_output)));
  byFile[tool] = fromFiles.getSchema(entry.$id);
}

const client = new Client({ name: "maverick-typescript-consumer", version: "0.0.0" });
await client.connect(
  new StdioClientTransport({ command, args: commandArgs, stderr: "inherit" }),
);
const { tools } = await client.listTools();
const listed = {};
for (const tool of tools) {
  const entry = index.tools[tool.name];
  listed[tool.name] = {
    exported: Boolean(entry),
    outputSchemaEqual: Boolean(entry) &&
      same(tool.outputSchema, readJson(path.join(exportDir, entry.structured_output))),
    inputSchemaEqual: Boolean(entry?.input) &&
      same(tool.inputSchema, readJson(path.join(exportDir, entry.input.structured_output))),
  };
}
const results = [];
for (const [tool, args] of calls) {
  const answer = await client.callTool({ name: tool, arguments: args });
  const document = answer.structuredContent;
  const form = byForm[tool](document);
  const file = byFile[tool](document);
  results.push({
    tool,
    isError: answer.isError === true,
    content: answer.content,
    structuredContent: document,
    ajvForm: form,
    ajvFiles: file,
    ajvErrors: [...(byForm[tool].errors || []), ...(byFile[tool].errors || [])],
    // A control: one unknown key more must be refused both ways (unevaluatedProperties).
    controlRefused: !byForm[tool]({ ...document, surplus: 1 }) && !byFile[tool]({ ...document, surplus: 1 }),
  });
}
await client.close();
process.stdout.write(
  JSON.stringify({ warnings: [...new Set(warnings)].sort(), tools: listed, results }),
);
