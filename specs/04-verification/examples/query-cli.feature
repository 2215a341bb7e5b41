@UC-003 @UC-004
Feature: Query the index from the command line
  As a developer or an agent
  I want kdd search, graph, context, impact, coverage, violations, health, hints and chunks
  So that I can find and follow the specification from a terminal

  Background:
    Given I ran "kdd build specs/" on this repository at level L1
    And "dist/kdd.json" names the published bundle

  @QRY-001 @BR-QUERY-001 @REQ-005
  Scenario: SCN-Query-001 — Search ranks the entity whose title matches first and refuses too-short text
    When I run "kdd search tombstone --json"
    Then the exit code is 0
    And the first item has "node_id" equal to "Entity:Tombstone"
    And "warnings" contains "NO_EMBEDDINGS" because the bundle is L1
    When I run "kdd search merge conflicts --kinds business-rule --json"
    Then every item has "document_kind" equal to "business-rule"
    When I run "kdd search ab"
    Then the exit code is 2
    And stderr is "kdd search: QUERY_TOO_SHORT: Query text must be at least 3 characters"

  @QRY-002
  Scenario: SCN-Query-002 — Graph traversal follows typed edges from a use case
    When I run "kdd graph UC-005 --depth 1 --direction out --json"
    Then the root is "UC:UC-005"
    And the reached nodes include "BR:BR-MERGE-001" via "UC_APPLIES_RULE" and "CMD:CMD-004" via "UC_EXECUTES_CMD"
    And the reached nodes include "OBJ:OBJ-002" via "UC_STORY"
    When I run "kdd graph Entity:Nope"
    Then the exit code is 3
    And stderr is "kdd graph: NODE_NOT_FOUND: Node not found: Entity:Nope"

  @QRY-003 @BP-BUDGET-001
  Scenario: SCN-Query-003 — Context stays within the token budget and says when it truncated
    When I run "kdd context 'how are merge conflicts resolved' --max-tokens 1000 --json"
    Then "total_tokens" is at most 1000
    And the items include "BR:BR-MERGE-001" among the first 3
    And "warnings" contains "NO_EMBEDDINGS" because the bundle is L1
    And "truncated" is true if and only if "warnings" contains "TOKEN_LIMIT_EXCEEDED"

  @QRY-004
  Scenario: SCN-Query-004 — Impact lists dependants and the scenarios to re-run
    When I run "kdd impact Entity:Tombstone --json"
    Then "directly_affected" includes "BR:BR-MERGE-001" with edge type "ENTITY_RULE"
    And "directly_affected" includes "Entity:IndexManifest" with edge type "DOMAIN_RELATION"
    And "directly_affected" includes "UC:UC-005" with edge type "WIKI_LINK"
    And "transitively_affected" includes "REQ:REQ-002" at hop 2
    And "scenarios" includes "SCN-Merge-003" from feature "merge-indexes"
    And "scenarios" includes "SCN-Incremental-002" from feature "incremental-build"

  @QRY-006 @UC-008
  Scenario: SCN-Query-005 — This repository's specs have no layer violations
    When I run "kdd violations --json"
    Then the exit code is 0
    And the JSON answer has "total_violations" equal to 0
    When I run "kdd violations"
    Then stdout contains "0 violations in"

  @QRY-005 @UC-008
  Scenario: SCN-Query-006 — Coverage shows which related artefacts a use case has
    When I run "kdd coverage UC:UC-005 --json"
    Then the exit code is 0
    And the JSON answer lists "business_rules" with status "covered"
    And the JSON answer lists "features" with status "covered"
    When I run "kdd coverage Entity:Nope"
    Then the exit code is 3
    And stderr contains "NODE_NOT_FOUND"

  @UC-008 @BR-LINK-001
  Scenario: SCN-Query-007 — Health finds no dangling links in this repository's specs
    When I run "kdd health --json"
    Then the exit code is 0
    And the JSON answer has an empty "dangling" list

  @QRY-007 @UC-003
  Scenario: SCN-Query-008 — Hints turn the file an agent is editing into the rules that constrain it
    When I run "kdd hints specs/01-domain/entities/Tombstone.md --json"
    Then the exit code is 0
    And the hint "specs/01-domain/entities/Tombstone.md" resolved to "Entity:Tombstone"
    And the first constraint is "BR:BR-MERGE-001"

  @QRY-008
  Scenario: SCN-Query-009 — Chunks at L1 are ranked lexically, at most 3 per node
    When I run "kdd chunks 'tombstone deletion' --top-k 8 --json"
    Then the exit code is 0
    And "metadata.warnings" contains "NO_EMBEDDINGS" because the bundle is L1
    And no node owns more than 3 of the items
