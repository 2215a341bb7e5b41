@BR-INDEX-001 @REQ-003
Feature: Manage local embedding models offline
  As a developer
  I want kdd model to list and fetch the local models used for L2 indexing
  So that semantic indexing works on my machine without calling any service at build time

  Scenario: SCN-Model-001 — Listing an empty store explains how to enable L2
    Given an empty local model store
    When I run "kdd model list" on that store
    Then the exit code is 0
    And stdout contains "No models in"

  Scenario: SCN-Model-002 — A model already in the store is listed and pulled without the network
    Given the offline test model "tiny-e5-test" is in a local model store
    And the network is off
    When I run "kdd model list" on that store
    Then the exit code is 0
    And stdout contains "kdd-test/tiny-e5-test"
    When I run "kdd model pull kdd-test/tiny-e5-test --dtype fp32" on that store
    Then the exit code is 0
    And no network request was made
