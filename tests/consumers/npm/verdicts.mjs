// Judge documents with the installed npm packages' validate, as a consumer would.
//
// Usage (from the scratch project that installed the packages): node verdicts.mjs CASES_JSON
// CASES_JSON holds {"cases": [{"package", "contract", "document"}]}; prints one verdict per
// case: {"valid": true} or {"valid": false, "errors": [{"pointer", "keyword"}]}, and fails when
// isValid disagrees with validate.
import fs from "node:fs";

const packages = {
  "maverick-contracts": await import("maverick-contracts"),
  "keyword-contracts": await import("keyword-contracts"),
};
const { cases } = JSON.parse(fs.readFileSync(process.argv[2], "utf-8"));
const verdicts = cases.map(({ package: name, contract, document }) => {
  const { validate, isValid } = packages[name];
  const result = validate(contract, document);
  if (isValid(contract, document) !== result.valid) {
    throw new Error(`isValid and validate disagree on a ${contract} document`);
  }
  if (result.valid) return { valid: true };
  return {
    valid: false,
    errors: result.errors.map(({ pointer, keyword }) => ({ pointer, keyword })),
  };
});
process.stdout.write(JSON.stringify(verdicts));
