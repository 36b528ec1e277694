// Judge the JSON-Schema-Test-Suite's format cases with a generated npm package's validate, and
// with ajv-formats alone (its "fast" and "full" modes), for comparison.
//
// Usage: node format-verdicts.mjs VALIDATE_JS CASES_JSON
// CASES_JSON holds [{"contract", "format", "data"}]; prints {"package": [verdict...],
// "fast": [...], "full": [...]}: the package's validate, then Ajv 2020 with ajv-formats alone
// (null where ajv-formats does not know the format: Ajv would ignore it).
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

const [validateJs, casesFile] = process.argv.slice(2);
const { isValid } = await import(pathToFileURL(validateJs).href);
const cases = JSON.parse(fs.readFileSync(casesFile, "utf-8"));
const alone = (mode) => {
  const ajv = new Ajv2020({ strict: false, validateFormats: true, logger: false });
  addFormats(ajv, { mode });
  const compiled = new Map();
  return cases.map(({ format, data }) => {
    if (!compiled.has(format)) {
      // A format ajv-formats does not define: Ajv would ignore it (null).
      compiled.set(format, format in ajv.formats ? ajv.compile({ format }) : null);
    }
    const check = compiled.get(format);
    return check === null ? null : check(data);
  });
};
const verdicts = {
  package: cases.map(({ contract, data }) => isValid(contract, data)),
  fast: alone("fast"),
  full: alone("full"),
};
process.stdout.write(JSON.stringify(verdicts));
