@UC-006 @CMD-005
Feature: Serve the index over HTTP and MCP
  As a team
  I want one server answering /v1/retrieve/* and an MCP server for agents
  So that everybody queries the same, current bundle

  Background:
    Given I ran "kdd build specs/" on this repository
    And I started "kdd serve dist/ --port 0" and noted the port

  Scenario: SCN-Serve-001 — Health reports the active bundle
    When I request "GET /v1/health"
    Then the status is 200
    And the body has "status" equal to "ok" and "bundle" equal to the file named in "dist/kdd.json"

  @QRY-001 @REQ-005
  Scenario: SCN-Serve-002 — Search over HTTP returns the same items and errors as the CLI
    When I request "GET /v1/retrieve/search?q=tombstone&limit=5"
    Then the status is 200
    And the item node ids equal those of "kdd search tombstone --limit 5 --json"
    When I request "GET /v1/retrieve/search?q=ab"
    Then the status is 400
    And the body is {"error": {"code": "QUERY_TOO_SHORT", "message": "Query text must be at least 3 characters", "param": "query_text"}}

  @REQ-001
  Scenario: SCN-Serve-003 — A newly published bundle is swapped in without failing requests
    Given a client sends "GET /v1/retrieve/search?q=merge" continuously from 4 connections
    When I change the title of "specs/02-behavior/queries/QRY-007-Hints.md" and run "kdd build specs/"
    Then within 2 seconds "GET /v1/health" reports the new bundle name
    And no request of the client received a status other than 200
    When I overwrite "dist/kdd.json" so that it names a file that does not exist
    Then "GET /v1/health" still reports the previous bundle
    And the server log contains "INDEX_UNAVAILABLE"

  @CMD-006 @UC-003 @QRY-003
  Scenario: SCN-Serve-004 — The MCP server lists the query tools and answers a context call
    When an MCP client launches "kdd mcp dist/" over stdio and sends "initialize" then "tools/list"
    Then the tool names are "kdd_chunks", "kdd_context", "kdd_coverage", "kdd_graph", "kdd_hints", "kdd_impact", "kdd_read_section", "kdd_search" and "kdd_violations"
    When the client calls "kdd_context" with query_text "how are merge conflicts resolved" and max_tokens 2000
    Then the result is not an error and its items include "BR:BR-MERGE-001"
    When the client calls "kdd_graph" with node_id "Entity:Nope"
    Then the result is an error with "data.code" equal to "NODE_NOT_FOUND"
    And nothing but JSON-RPC messages was written to stdout
