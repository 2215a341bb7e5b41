@UC-006 @CMD-005
Feature: Serve the index over HTTP and MCP
  As a team
  I want one server answering /v1/retrieve/* and an MCP server for agents
  So that everybody queries the same, current bundle

  Background:
    Given I ran "kdd build specs/" on this repository
    And I started "kdd serve dist/ --port 0" and noted the port

  Scenario: SCN-Serve-001 — Liveness and stats report the active bundle
    When I request "GET /healthz"
    Then the status is 200
    And the body has "status" equal to "ok" and "bundle" equal to the hash named in "dist/kdd.json"
    When I request "GET /v1/stats"
    Then the status is 200
    And the body has "bundle" equal to the file named in "dist/kdd.json" and "index_level" equal to "L1"

  @QRY-001 @REQ-005
  Scenario: SCN-Serve-002 — Search over HTTP returns the same items and errors as the CLI
    When I request "POST /v1/retrieve/search" with {"query_text": "tombstone", "limit": 5}
    Then the status is 200
    And the item node ids equal those of "kdd search tombstone --limit 5 --json"
    When I request "POST /v1/retrieve/search" with {"query_text": "ab"}
    Then the status is 400
    And the body's error has "code" equal to "QUERY_TOO_SHORT" and "message" equal to "Query text must be at least 3 characters"
    When I request "GET /v1/retrieve/search"
    Then the status is 405

  @REQ-001
  Scenario: SCN-Serve-003 — A newly published bundle is swapped in without failing requests
    Given a client sends "GET /v1/retrieve/graph?node=UC:UC-005" continuously from 4 connections
    When I change the title of "specs/02-behavior/queries/QRY-007-Hints.md" and run "kdd build specs/"
    Then within 2 seconds "GET /v1/stats" reports the new bundle name
    And no request of the client received a status other than 200
    When I overwrite "dist/kdd.json" so that it names a file that does not exist
    Then "GET /v1/stats" still reports the previous bundle
    And the server log contains "rejected new bundle: INDEX_UNAVAILABLE"

  @CMD-006 @UC-003 @QRY-003
  Scenario: SCN-Serve-004 — The MCP server lists the query tools and answers a context call
    When an MCP client launches "kdd mcp dist/" over stdio and sends "initialize" then "tools/list"
    Then the tool names are "kdd_chunks", "kdd_context", "kdd_coverage", "kdd_find_spec", "kdd_health", "kdd_hints", "kdd_impact", "kdd_layer_violations", "kdd_list", "kdd_read_section", "kdd_related", "kdd_search" and "kdd_stats"
    When the client calls "kdd_context" with query_text "how are merge conflicts resolved" and max_tokens 2000
    Then the result is not an error and its items include "BR:BR-MERGE-001"
    When the client calls "kdd_related" with node_id "Entity:Nope"
    Then the result is an error with code "NODE_NOT_FOUND"
    And nothing but JSON-RPC messages was written to stdout
