@UC-002 @CMD-002
Feature: Keep the index fresh incrementally
  As a developer
  I want each commit to refresh only what changed
  So that the index stays current without slowing me down

  Background:
    Given a working copy of this repository's "specs/" tree in a temporary git repository
    And I ran "kdd build specs/" and every file is committed

  @REQ-001 @BR-BUNDLE-001
  Scenario: SCN-Incremental-001 — One changed document is re-parsed and the result equals a full build
    Given I change the title of "specs/02-behavior/queries/QRY-007-Hints.md" to "Hints for agents"
    When I run "kdd build specs/ --json"
    Then the JSON report has "mode" equal to "incremental", 1 file in "changes.reindexed" and 0 in "changes.deleted"
    And the JSON report's events are "EVT-KDDDocument-Stale", "EVT-KDDDocument-Detected", "EVT-KDDDocument-Parsed" and "EVT-KDDDocument-Indexed"
    And only ".kdd-index/nodes/query/QRY-007.json", ".kdd-index/edges/edges.jsonl" and ".kdd-index/manifest.json" changed under ".kdd-index/"
    And the published bundle name equals the one from "kdd build specs/ --full" in a fresh copy of the same tree
    And the command took at most 200 ms when the benchmark corpus of 1000 documents is used instead

  @BR-MERGE-001
  Scenario: SCN-Incremental-002 — Deleting a document leaves a tombstone and dangling links
    Given I delete "specs/01-domain/entities/Tombstone.md" and commit at "2025-03-14T11:00:00Z"
    When I run "kdd build specs/ --json"
    Then the JSON report has 1 file in "changes.deleted"
    And the JSON report has an "EVT-KDDDocument-Deleted" event for "Entity:Tombstone"
    And ".kdd-index/tombstones.jsonl" lists a tombstone with "node_id" "Entity:Tombstone" and "deleted_at" "2025-03-14T11:00:00Z"
    And "kdd health --json" lists a dangling link from "BR:BR-MERGE-001" with target "Tombstone"

  Scenario: SCN-Incremental-003 — A commit outside the specs leaves the manifest untouched
    Given I commit a change to "README.md" outside "specs/"
    When I run "kdd build specs/"
    Then ".kdd-index/manifest.json" is unchanged

  @CMD-007
  Scenario: SCN-Incremental-004 — Installing the hook is idempotent and refreshes the index on commit
    When I run "kdd hook install" twice
    Then ".git/hooks/pre-commit" contains exactly one block between "# >>> kdd-index >>>" and "# <<< kdd-index <<<"
    When I edit "specs/01-domain/rules/BR-QUERY-001.md" and commit
    Then ".kdd-index/nodes/business-rule/BR-QUERY-001.json" has the new "source_hash"
    And the commit contains ".kdd-index/nodes/business-rule/BR-QUERY-001.json"
    When I run "kdd hook uninstall"
    Then ".git/hooks/pre-commit" contains no "# >>> kdd-index" block
