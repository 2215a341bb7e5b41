@UC-001 @CMD-001
Feature: Build the index of a specs tree
  As a developer
  I want kdd build to compile my specs tree into .kdd-index/ and a content-hashed bundle
  So that agents, the server and the docs site can load it

  Background:
    Given a working copy of this repository's "specs/" tree in a temporary folder
    And no embedding model is configured
    And the working copy is a git repository with every file committed

  Scenario: SCN-Build-001 — A build writes nodes, edges, manifest and bundle
    When I run "kdd build specs/"
    Then the exit code is 0
    And the file ".kdd-index/nodes/entity/Bundle.json" exists with "id" equal to "Entity:Bundle"
    And the file ".kdd-index/nodes/use-case/UC-001.json" exists with "id" equal to "UC:UC-001"
    And the file ".kdd-index/nodes/feature/build-index.json" exists with "id" equal to "FEAT:build-index"
    And ".kdd-index/edges/edges.jsonl" contains an edge from "UC:UC-005" to "BR:BR-MERGE-001" of type "UC_APPLIES_RULE"
    And ".kdd-index/edges/edges.jsonl" contains an edge from "CMD:CMD-004" to "EVT:EVT-Index-MergeCompleted" of type "EMITS"
    And ".kdd-index/edges/edges.jsonl" contains an edge from "BR:BR-MERGE-001" to "Entity:Tombstone" of type "ENTITY_RULE"
    And ".kdd-index/manifest.json" has "index_level" equal to "L1" and "embedding_model" equal to null
    And "stats.nodes" in the manifest equals the number of ".md" and ".feature" files under "specs/"
    And "dist/kdd.json" names a file "dist/kdd-<12 hex>.msgpack" whose SHA-256 starts with those 12 hex
    And stdout contains "layer violations: 0   dangling links: 0"
    And stderr contains "kdd build: extract"
    And stderr contains "kdd build: pack"
    When I run "kdd build specs/ --full --quiet"
    Then the exit code is 0
    And stderr is ""

  @REQ-002 @BR-BUNDLE-001
  Scenario: SCN-Build-002 — Rebuilding the same tree gives a byte-identical bundle
    Given I ran "kdd build specs/ --full" and noted the bundle name from "dist/kdd.json"
    When I delete ".kdd-index/" and run "kdd build specs/ --full" again
    Then "dist/kdd.json" names the same bundle file
    And every file under ".kdd-index/" is byte-identical to the first build
    And no file under ".kdd-index/" contains the current year's wall-clock time of the build or the temporary folder's absolute path

  @BR-DOCUMENT-001
  Scenario: SCN-Build-003 — A file with malformed YAML is reported and everything else is indexed
    Given the file "specs/01-domain/entities/Broken.md" contains front-matter "kind: entity" followed by the line "aliases: [unclosed"
    When I run "kdd build specs/"
    Then the exit code is 0
    And stdout contains "INVALID_FRONT_MATTER  Invalid or missing front-matter in 01-domain/entities/Broken.md"
    And there is no file ".kdd-index/nodes/entity/Broken.json"
    And the file ".kdd-index/nodes/entity/Bundle.json" exists
    When I run "kdd build specs/ --strict"
    Then the exit code is 1

  @BR-INDEX-001
  Scenario: SCN-Build-004 — Asking for L2 without a usable model degrades to L1
    Given the environment variable "KDD_MODELS_DIR" points to an empty folder
    When I run "kdd build specs/ --level L2"
    Then the exit code is 0
    And stdout contains "EMBEDDING_FAILED  Embedding generation failed, falling back to L1"
    And ".kdd-index/manifest.json" has "index_level" equal to "L1"
    And the folder ".kdd-index/embeddings/" is empty or absent

  @BR-LAYER-001 @QRY-006
  Scenario: SCN-Build-005 — A link from the domain layer to the behavior layer is flagged, not rejected
    Given the line "See [[UC-001-BuildIndex]]." is appended to "specs/01-domain/entities/Bundle.md"
    When I run "kdd build specs/"
    Then the exit code is 0
    And stdout contains "layer violations: 1"
    When I run "kdd violations"
    Then stdout has a row with "Entity:Bundle", "01-domain", "UC:UC-001", "02-behavior", "WIKI_LINK" and "01-domain/entities/Bundle.md"
    When I run "kdd build specs/ --fail-on-violations"
    Then the exit code is 1
