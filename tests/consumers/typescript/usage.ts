// Uses the types json-schema-to-typescript generates from the export: one value of each agent
// contract, and a few values the types must refuse. `tsc --noEmit` compiles this file against
// the generated declarations (the test writes them to ./generated next to a copy of it).
import type { FindingGroup } from "./generated/agents/finding_group";
import type { FixOutcomes } from "./generated/agents/fix_outcomes";
import type { FixResult } from "./generated/agents/fix_result";
import type { FixerResult } from "./generated/agents/fixer_result";
import type { GroupedReviewResult } from "./generated/agents/grouped_review_result";
import type { ImplementationResult } from "./generated/agents/implementation_result";
import type { ReviewResult } from "./generated/agents/review_result";
import type { ReviewSeverity } from "./generated/agents/review_severity";
import type { ComplianceResult } from "./generated/tools/compliance_result";

// code-reviewer
const review: ReviewResult = {
  success: true,
  files_reviewed: 2,
  summary: "One major finding",
  findings: [
    {
      file: "src/maverick/agents/fixer.py",
      line: 45,
      message: "Exception from the SDK call is swallowed",
      severity: "major",
      suggestion: "Return success=False with error_details",
    },
  ],
  usage: { input_tokens: 1200, output_tokens: 300, duration_ms: 5400, total_cost: null },
};

// unified-reviewer
const group: FindingGroup = {
  description: "Independent fixes",
  findings: [
    {
      id: "F001",
      file: "src/maverick/agents/fixer.py",
      line: "45-67",
      issue: "Exception is swallowed",
      severity: "critical",
      category: "clean_code",
    },
  ],
};
const grouped: GroupedReviewResult = { groups: [group] };

// simple-fixer
const outcomes: FixOutcomes = {
  outcomes: [{ id: "F001", outcome: "fixed", explanation: "Except branch now fails loudly" }],
};

// fixer
const fixer: FixerResult = { success: false, summary: "Could not apply", error_details: "No prompt" };

// issue-fixer
const fix: FixResult = {
  success: true,
  issue_number: 142,
  issue_title: "Fixer crashes on empty prompt",
  files_changed: [{ file_path: "src/maverick/agents/fixer.py", change_type: "modified" }],
  commit_sha: null,
};

// implementer
const implementation: ImplementationResult = {
  success: true,
  tasks_completed: 1,
  tasks_failed: 0,
  tasks_skipped: 0,
  task_results: [
    {
      task_id: "T001",
      status: "completed",
      validation: [{ step: "test", success: true, output: "87 passed", duration_ms: 4630 }],
    },
  ],
};

// A tool result extends ToolResult: its fields and the base's are both typed.
const compliance: ComplianceResult = { success: true, status: "COMPLIANT", violations: [] };

// The types refuse what the schemas refuse structurally.
// @ts-expect-error success is required
const missingRequired: FixerResult = { summary: "no success flag" };
// @ts-expect-error "blocker" is not a ReviewSeverity
const badEnum: ReviewSeverity = "blocker";
// @ts-expect-error files_reviewed is an integer, not a string
const badType: ReviewResult = { success: true, files_reviewed: "2", summary: "x" };
// @ts-expect-error FixResult declares no property "extra" (additionalProperties: false)
const unknownField: FixResult = { success: true, issue_number: 1, issue_title: "t", extra: 1 };

export const values = [
  review, grouped, outcomes, fixer, fix, implementation, compliance,
  missingRequired, badEnum, badType, unknownField,
];
