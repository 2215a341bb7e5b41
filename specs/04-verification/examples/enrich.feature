@CMD-009 @BR-INDEX-001
Feature: Enrich the index with the developer's own agent
  As a developer
  I want kdd enrich to add summaries and implicit relations through my own agent
  So that the index can reach L3 without sending my specs to any service I did not choose

  Background:
    Given I ran "kdd build specs/" on this repository at level L1

  Scenario: SCN-Enrich-001 — An agent that does not answer JSON writes nothing
    When I run "kdd enrich Entity:Tombstone --provider command --agent-cmd cat --no-build --json"
    Then the exit code is 1
    And the folder ".kdd-index/enrichments/" is empty or absent
    And ".kdd-index/manifest.json" has "index_level" equal to "L1"
    And the JSON report lists node "Entity:Tombstone" with status "failed" and error code "AGENT_ERROR"

  Scenario: SCN-Enrich-002 — Enriching without a built index is refused
    Given the folder ".kdd-index/" is deleted
    When I run "kdd enrich Entity:Tombstone --provider command --agent-cmd cat --no-build"
    Then the exit code is 4
    And stderr contains "LOW_INDEX_LEVEL"
