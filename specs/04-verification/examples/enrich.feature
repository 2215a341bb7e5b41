@CMD-009 @BR-INDEX-001
Feature: Enrich the index with the developer's own agent
  As a developer
  I want kdd enrich to add summaries and implicit relations through my own agent
  So that the index can reach L3 without sending my specs to any service I did not choose

  Background:
    Given I ran "kdd build specs/" on this repository at level L1

  Scenario: SCN-Enrich-001 — An agent that does not answer JSON writes nothing
    When I run "kdd enrich Entity:Tombstone --provider command --agent-cmd cat --no-build --json"
    Then the exit code is not 0
    And the folder ".kdd-index/enrichments/" is empty or absent
    And ".kdd-index/manifest.json" has "index_level" equal to "L1"
    And stdout contains "ENRICHMENT_FAILED"

  Scenario: SCN-Enrich-002 — Enriching an L1 index is refused
    When I run "kdd enrich Entity:Tombstone --provider command --agent-cmd cat --no-build"
    Then the exit code is not 0
    And stderr contains "NO_EMBEDDINGS"
