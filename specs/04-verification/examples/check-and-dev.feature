@UC-008 @UC-002 @CMD-002
Feature: A CI gate and a live loop
  As a team writing specs
  I want a check that points at the line of each new problem, and a loop that rebuilds on save
  So that reviews see where a change broke the graph, and writers see their edit at once

  Background:
    Given a working copy of this repository's "specs/" tree in a temporary git repository
    And I ran "kdd build specs/" and every file is committed

  Scenario: SCN-Check-001 — Against the committed index, only the new layer violation fails the gate
    Given the line "Legacy reference to [[UC-001]]." is appended to "specs/01-domain/entities/GraphEdge.md"
    And I ran "kdd build specs/" and every file is committed
    And the line "Deleting one is what [[UC-002]] handles." is appended to "specs/01-domain/entities/Tombstone.md"
    When I run "kdd check specs/ --base HEAD --format sarif"
    Then the exit code is 1
    And the SARIF log's error results are exactly one "BR-LAYER-001" in "01-domain/entities/Tombstone.md" at the appended line, column 22
    When I run "kdd check specs/ --base HEAD --format github --error-on violations"
    Then stdout contains "::error file=specs/01-domain/entities/Tombstone.md,line="
    When I run "kdd check specs/ --format json"
    Then the JSON report counts more errors than the run against the base

  Scenario: SCN-Check-002 — A git-aware incremental build gives the bytes of a normal one
    Given the line "A tombstone is kept until every index has merged it." is appended to "specs/01-domain/entities/Tombstone.md"
    When I run "kdd build specs/ --since HEAD --json"
    Then the exit code is 0
    And the JSON report has "mode" equal to "incremental", 1 file in "changes.reindexed" and 1 in "changes.modified"
    And "dist/kdd.json" names the bundle that a full build of the same tree names
    When I run "kdd build specs/ --since no-such-ref"
    Then the exit code is 3
    And stderr contains "COMMIT_NOT_FOUND: Commit not found: no-such-ref"

  Scenario: SCN-Dev-001 — An edit is searchable over HTTP within a second under kdd dev
    Given I started "kdd dev specs/ --port 0"
    When I append "The quetzal feather marks a tombstone." to "specs/01-domain/entities/Tombstone.md"
    Then "POST /v1/retrieve/search" for "quetzal feather" returns "Entity:Tombstone" within 1 second
    And the served "kdd-dev.json" reports the state "ok"
    When I write a front-matter that is not YAML into "specs/01-domain/entities/Tombstone.md"
    Then "kdd-dev.json" turns "broken" with a warning "INVALID_FRONT_MATTER" naming "01-domain/entities/Tombstone.md"
    And "POST /v1/retrieve/search" for "quetzal feather" still returns "Entity:Tombstone"
    When I stop kdd dev with Ctrl-C
    Then it exits with code 0
