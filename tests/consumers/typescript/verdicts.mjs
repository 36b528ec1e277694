// Judge documents with Ajv (draft 2020-12, strict) against the exported schemas.
//
// Usage: node verdicts.mjs EXPORT_DIR CASES_JSON
//
// CASES_JSON holds {"cases": [{"id", "schema" ($id), "structured" (file or null), "document"}]}.
// Every case is judged four ways, and the verdicts are printed as JSON on stdout:
//   bundle      one Ajv instance holding only bundle.json (the compound document)
//   files       one Ajv instance holding each per-contract file, added with addSchema
//   structured  the agent contract's structured-output form, compiled on its own (or null)
//   exact       as bundle, with Ajv's multipleOf replaced by an exact decimal one (what the npm
//               package's validate does): Ajv's own divides in binary floating point and reads
//               a quotient of 1e21 or more with parseInt
// Ajv runs in strict mode (every strict check on); any warning it still logs is printed too,
// and the caller treats it as a finding. `format` is an annotation, as draft 2020-12 says by
// default and as the generated models read it: validateFormats is off (else strict mode
// refuses every format ajv-formats would have to define).
import fs from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020.js";

const [exportDir, casesFile] = process.argv.slice(2);
if (!exportDir || !casesFile) {
  console.error("usage: node verdicts.mjs EXPORT_DIR CASES_JSON");
  process.exit(2);
}
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf-8"));
const index = readJson(path.join(exportDir, "index.json"));
const { cases } = readJson(casesFile);

const warnings = [];
const logger = {
  log: () => {},
  warn: (...args) => warnings.push(args.join(" ")),
  error: (...args) => warnings.push(args.join(" ")),
};
const ajv = () =>
  new Ajv2020({ strict: true, allowUnionTypes: true, validateFormats: false, logger });

const fromBundle = ajv();
fromBundle.addSchema(readJson(path.join(exportDir, index.bundle)), "bundle.json");

const decimal = (number) => {
  const [mantissa, exponent = "0"] = String(number).split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  return [BigInt(whole + fraction), Number(exponent) - fraction.length];
};
const exactMultipleOf = (step, value) => {
  const [[a, ae], [b, be]] = [decimal(value), decimal(step)];
  const e = Math.min(ae, be);
  return (a * 10n ** BigInt(ae - e)) % (b * 10n ** BigInt(be - e)) === 0n;
};
const exact = ajv();
exact.removeKeyword("multipleOf");
exact.addKeyword({ keyword: "multipleOf", type: "number", schemaType: "number",
                   validate: exactMultipleOf });
exact.addSchema(readJson(path.join(exportDir, index.bundle)), "bundle.json");

const fromFiles = ajv();
for (const entry of Object.values(index.contracts)) {
  fromFiles.addSchema(readJson(path.join(exportDir, entry.file)));
}

const structured = new Map();
const structuredValidator = (file) => {
  if (!structured.has(file)) {
    structured.set(file, ajv().compile(readJson(path.join(exportDir, file))));
  }
  return structured.get(file);
};

const validator = (instance, id) => {
  const validate = instance.getSchema(id);
  if (!validate) throw new Error(`no schema with $id ${id}`);
  return validate;
};

const results = {};
for (const { id, schema, structured: file, document } of cases) {
  results[id] = {
    bundle: validator(fromBundle, schema)(document),
    files: validator(fromFiles, schema)(document),
    structured: file ? structuredValidator(file)(document) : null,
    exact: validator(exact, schema)(document),
  };
}
process.stdout.write(JSON.stringify({ warnings: [...new Set(warnings)].sort(), results }));
