// Judge the JSON-Schema-Test-Suite's cases with Ajv on each group's exported bundle.
//
// Usage: node suite-verdicts.mjs GROUPS_JSON
// GROUPS_JSON holds [{"bundle", "id", "own" (ownProperties), "cases": [data...]}]; prints, per
// group, each case's verdict, or {"error": message} when Ajv cannot compile the bundle. Ajv runs
// with the options of the npm package's validate when strict mode is off: every error, `pattern`
// with the u flag, `format` an annotation, multipleOf exact in decimal.
import fs from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";

const decimal = (number) => {
  const [mantissa, exponent = "0"] = String(number).split("e");
  const [whole, fraction = ""] = mantissa.split(".");
  return [BigInt(whole + fraction), Number(exponent) - fraction.length];
};
const multipleOf = (step, value) => {
  const [[a, ae], [b, be]] = [decimal(value), decimal(step)];
  const e = Math.min(ae, be);
  return (a * 10n ** BigInt(ae - e)) % (b * 10n ** BigInt(be - e)) === 0n;
};
const instance = (own) => {
  const ajv = new Ajv2020({ strict: false, allErrors: true, unicodeRegExp: true,
                            validateFormats: false, ownProperties: own });
  ajv.removeKeyword("multipleOf");
  ajv.addKeyword({ keyword: "multipleOf", type: "number", schemaType: "number", validate: multipleOf });
  return ajv;
};
const instances = { true: instance(true), false: instance(false) };
const groups = JSON.parse(fs.readFileSync(process.argv[2], "utf-8"));
const results = groups.map(({ bundle, id, own, cases }) => {
  const ajv = instances[own];
  ajv.removeSchema(); // every schema but the metaschemas: one group at a time
  try {
    ajv.addSchema(bundle, "bundle.json");
    const check = ajv.getSchema(id);
    if (!check) return { error: `no schema with $id ${id}` };
    return { verdicts: cases.map((data) => check(data)) };
  } catch (error) {
    return { error: String(error.message) };
  }
});
process.stdout.write(JSON.stringify(results));
