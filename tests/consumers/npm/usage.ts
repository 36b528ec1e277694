// A TypeScript service using the npm packages as a consumer would: `tsc --strict` compiles this
// file against the installed maverick-contracts and keyword-contracts (the keyword fixtures'
// package), together with documents.ts, which tests/consumers/test_npm_package.py writes: every
// valid conformance document of every contract, typed as its contract.
import {
  agents,
  contracts,
  isValid,
  tools,
  validate,
  type ComplianceResult,
  type ContractError,
  type FileResult,
  type FixerResult,
  type ReviewResult,
  type ReviewSeverity,
  type ToolResult,
  type Validated,
} from "maverick-contracts";
import type { FixOutcome } from "maverick-contracts/types/agents/fix_outcome";
import {
  validate as validateKeywords,
  type FindingNode,
  type PatchPlan,
  type ShellEvent,
  type TriageReport,
} from "keyword-contracts";

// An agent's output, judged: the typed document, or every error with its JSON pointer.
export function readFixer(text: string): FixerResult | readonly ContractError[] {
  const result: Validated<FixerResult> = validate(agents.fixer, JSON.parse(text));
  return result.valid ? result.value : result.errors;
}

// isValid is a type guard; optional fields are `?:`, nullable ones `| null`, enums unions.
export function weight(document: unknown): number {
  if (!isValid("ReviewResult", document)) return 0;
  const review: ReviewResult = document;
  const severities: ReviewSeverity[] = (review.findings ?? []).map((f) => f.severity);
  const major = severities.filter((s) => s === "critical" || s === "major").length;
  return major * 1000 + (review.usage?.input_tokens ?? 0);
}

// A tool result extends ToolResult: it is one, and its own fields are typed beside the base's.
export function toolError(document: unknown): string | null | undefined {
  const result = validate(tools.get_file.output, document);
  if (!result.valid) return result.errors.map((e) => `${e.pointer}: ${e.message}`).join("; ");
  const file: FileResult = result.value;
  const base: ToolResult = file;
  return base.success ? file.content : file.error;
}

export const compliance: ComplianceResult = { success: true, status: "COMPLIANT", violations: [] };
export const outcome: FixOutcome = { id: "F001", outcome: "deferred", explanation: "" };
export const fixerId: "https://maverick.dev/schemas/agents/fixer_result.json" =
  contracts.FixerResult.id;

// A tagged oneOf is a discriminated union: the switch narrows each step.
export function describe(plan: PatchPlan): string[] {
  return plan.steps.map((step) => {
    switch (step.kind) {
      case "edit": {
        const [first, last] = step.lines;
        return `${step.path}:${first}-${last}`;
      }
      case "delete":
        return `rm ${step.path}`;
      case "rename":
        return `mv ${step.path} ${step.to}`;
    }
  });
}

// An exact prefixItems array is a tuple; a recursive contract names itself.
export function where(node: FindingNode): string {
  const [path, first, last] = node.location ?? ["?", 0, 0];
  const below = (node.children ?? []).map(where).join(", ");
  return `${path}:${first}-${last}${below ? ` (${below})` : ""}`;
}

// enum and const are literal types; patternProperties leave the object open.
export const report: TriageReport = { ticket: "AB-1", points: 8, confidence: 0.5, urgent: null };
export const shell: ShellEvent = { tool: "sh", command: "make", exit_code: 2, label_ci: "yes" };
export const judged: boolean = validateKeywords("TriageReport", report).valid;
