// Wrongly typed uses of the packages: `tsc --strict` must refuse each line marked "refused"
// (tests/consumers/test_npm_package.py compares the lines tsc reports with the marked ones).
import {
  agents,
  validate,
  type FileResult,
  type FixResult,
  type FixerResult,
  type ReviewSeverity,
} from "maverick-contracts";
import type { FindingNode, PatchPlan, TriageReport } from "keyword-contracts";

export const noSuccess: FixerResult = { summary: "no success flag" }; // refused: required
export const badEnum: ReviewSeverity = "blocker"; // refused: not an enum value
export const badType: FixerResult = { success: "yes", summary: "x" }; // refused: a boolean
export const extra: FixResult = { success: true, issue_number: 1, issue_title: "t", x: 1 }; // refused
export const subclass: FileResult = { success: true, mode: "r" }; // refused: unevaluated
export const notNull: FindingNode = { message: "m", severity: "info", children: null }; // refused
export const pair: FindingNode = { message: "m", severity: "info", location: ["a.py", 1] }; // refused
export const tag: PatchPlan = { steps: [{ kind: "delete", path: "a", to: "b" }] }; // refused
export const points: TriageReport = { ticket: "AB-1", points: 4, confidence: 0.5 }; // refused
const unchecked = validate(agents.fixer, {});
export const value: FixerResult = unchecked.value; // refused: valid not checked
export const unknown = validate("NoSuchContract", {}); // refused: no such contract
