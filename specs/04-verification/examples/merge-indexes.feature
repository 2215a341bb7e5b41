@UC-005 @CMD-004 @BR-MERGE-001
Feature: Merge the indexes of several developers
  As a team without a central indexing server
  I want kdd merge to combine our indexes deterministically
  So that the merged bundle is the same whatever order the indexes arrive in

  Background:
    Given two git clones "alice" and "bob" of a repository containing this repository's "specs/" tree
    And both have run "kdd build specs/" at level L1 with kdd-index 0.1.0

  Scenario: SCN-Merge-001 — Identical indexes merge into the same index
    When I run "kdd merge alice/.kdd-index bob/.kdd-index -o merged/dist --index-dir merged/.kdd-index --json"
    Then the exit code is 0
    And the report has "conflicts_resolved" equal to 0 and "tombstones_applied" equal to 0
    And the report's events are "EVT-Index-MergeRequested" and "EVT-Index-MergeCompleted" with the same "merge_id"
    And "merged/.kdd-index/nodes" is byte-identical to "alice/.kdd-index/nodes"
    And "merged/dist/kdd.json" and "alice/dist/kdd.json" name the same bundle file

  Scenario: SCN-Merge-002 — The later commit wins a conflict on the same document
    Given bob edits "specs/01-domain/entities/Bundle.md" and commits at "2025-03-14T10:00:00Z"
    And alice edits "specs/01-domain/entities/Bundle.md" differently and commits at "2025-03-14T10:15:00Z"
    And both rebuild their index
    When I run "kdd merge alice/.kdd-index bob/.kdd-index -o merged/dist --index-dir merged/.kdd-index --json"
    Then the report has "conflicts_resolved" equal to 1 with winner "alice" and reason "later indexed_at"
    And the node "Entity:Bundle" in the merged index has alice's "source_hash"
    And the outgoing edges of "Entity:Bundle" are exactly those of alice's index

  Scenario: SCN-Merge-003 — A tombstone removes the node (delete wins)
    Given bob edits "specs/01-domain/entities/Tombstone.md" and commits at "2025-03-14T10:00:00Z"
    And alice deletes "specs/01-domain/entities/Tombstone.md" and commits at "2025-03-14T11:00:00Z"
    And both rebuild their index
    When I run "kdd merge bob/.kdd-index alice/.kdd-index -o merged/dist --index-dir merged/.kdd-index --json"
    Then the report has "tombstones_applied" equal to 1
    And the merged index has no node "Entity:Tombstone"
    And the merged index lists a dangling link from "BR:BR-MERGE-001" with target "Tombstone"

  @REQ-002 @BR-BUNDLE-001
  Scenario: SCN-Merge-004 — Merging is order-independent and idempotent
    Given alice and bob have the divergent edits of SCN-Merge-002
    When I run "kdd merge alice/.kdd-index bob/.kdd-index -o ab-dist --index-dir ab/.kdd-index"
    And I run "kdd merge bob/.kdd-index alice/.kdd-index -o ba-dist --index-dir ba/.kdd-index"
    And I run "kdd merge ab/.kdd-index ab/.kdd-index -o aa-dist --index-dir aa/.kdd-index"
    Then "ab-dist/kdd.json" and "ba-dist/kdd.json" name the same bundle file
    And "ab/.kdd-index" is byte-identical to "ba/.kdd-index"
    And "aa/.kdd-index" is byte-identical to "ab/.kdd-index"

  @BR-INDEX-001
  Scenario: SCN-Merge-005 — Indexes built with different embedding models are refused
    Given alice rebuilt at level L2 with model "Xenova/multilingual-e5-small"
    And bob rebuilt at level L2 with model "Xenova/bge-small-en-v1.5"
    When I run "kdd merge alice/.kdd-index bob/.kdd-index -o merged/dist --index-dir merged/.kdd-index"
    Then the exit code is 1
    And stderr contains "kdd merge: INCOMPATIBLE_EMBEDDING_MODEL: Incompatible embedding models"
    And the folder "merged" does not exist

  @BR-EMBEDDING-001
  Scenario: SCN-Merge-006 — At L2 the vectors follow the winning version
    Given alice rebuilt at level L2 with model "Xenova/multilingual-e5-small"
    And bob rebuilt at level L2 with model "Xenova/multilingual-e5-small"
    And bob edits "specs/01-domain/entities/Bundle.md" and commits at "2025-03-14T10:00:00Z"
    And alice edits "specs/01-domain/entities/Bundle.md" differently and commits at "2025-03-14T10:15:00Z"
    And both rebuild their index at level L2
    When I run "kdd merge alice/.kdd-index bob/.kdd-index -o merged/dist --index-dir merged/.kdd-index --json"
    Then the exit code is 0
    And "merged/.kdd-index/manifest.json" has "index_level" equal to "L2"
    And the vectors of "Entity:Bundle" in the merged bundle equal those in alice's bundle
