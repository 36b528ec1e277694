// Judge the draft projects' documents three ways, as consumers in JavaScript would.
//
// Usage (from the scratch project that installed the packages): node verdicts.mjs CASES_JSON
// CASES_JSON holds {"exports": {package: export folder}, "cases": [{"package", "contract",
// "id" (the contract's $id), "structured" (a structured-output file, or null), "document"}]}.
// Prints one verdict per case: {"npm", "bundle", "structured"}:
//   npm         the installed package's validate (and isValid, which must agree)
//   bundle      Ajv2020 holding only the project's export/bundle.json (strict mode off,
//               formats annotations, only own properties, a pattern valid only without the
//               u flag read so: docs/consumers.md's options for any schema)
//   structured  the agent contract's structured-output form, compiled by draft-07 Ajv as the
//               Claude CLI does (or null)
// Any warning Ajv logs is printed in "warnings".
import fs from "node:fs";
import path from "node:path";
import Ajv from "ajv";
import Ajv2020 from "ajv/dist/2020.js";

const { exports, cases } = JSON.parse(fs.readFileSync(process.argv[2], "utf-8"));
const warnings = [];
const logger = {
  log: () => {},
  warn: (...args) => warnings.push(args.join(" ")),
  error: (...args) => warnings.push(args.join(" ")),
};
// A pattern ECMA-262 refuses with the u flag is read without it (README, "For consumers that
// are not Python"), as the package's validate reads it.
function ecmaRegExp(pattern, flags) {
  try {
    return new RegExp(pattern, flags);
  } catch (error) {
    if (!flags.includes("u")) throw error;
    return new RegExp(pattern, flags.replace("u", ""));
  }
}
const options = { strict: false, allErrors: true, validateFormats: false, ownProperties: true,
                  code: { regExp: ecmaRegExp }, logger };
const readJson = (file) => JSON.parse(fs.readFileSync(file, "utf-8"));

const packages = {};
const bundles = {};
for (const [name, folder] of Object.entries(exports)) {
  packages[name] = await import(name);
  bundles[name] = new Ajv2020(options);
  bundles[name].addSchema(readJson(path.join(folder, "bundle.json")), "bundle.json");
}
const structured = new Map();
const draft7 = (file) => {
  if (!structured.has(file)) structured.set(file, new Ajv(options).compile(readJson(file)));
  return structured.get(file);
};

const verdicts = cases.map(({ package: name, contract, id, structured: file, document }) => {
  const { validate, isValid } = packages[name];
  const npm = validate(contract, document).valid;
  if (isValid(contract, document) !== npm) throw new Error(`isValid and validate disagree: ${contract}`);
  const bundle = bundles[name].getSchema(id);
  if (!bundle) throw new Error(`no schema with $id ${id} in ${name}'s bundle`);
  return {
    npm,
    bundle: bundle(document),
    structured: file ? draft7(path.join(exports[name], file))(document) : null,
  };
});
process.stdout.write(JSON.stringify({ warnings: [...new Set(warnings)].sort(), verdicts }));
