@UC-007 @CMD-008
Feature: Static docs site with client-side search
  As a reader of the specification
  I want a static site that searches in my browser
  So that I can explore the specs without a server or a checkout

  Background:
    Given I ran "kdd build specs/" on this repository
    And I ran "kdd site"
    And a static file server serves "dist/" on a local port

  Scenario: SCN-Site-001 — The site is plain static files next to the content-hashed bundle
    When I list the files under "dist/"
    Then "dist/" contains "index.html", "kdd.json", "kdd-site.json" and the bundle file named in "dist/kdd.json"
    And the JavaScript a first view loads from "dist/kdd-site-assets/" totals at most 300 KB gzipped
    And the diagram renderer under "dist/kdd-site-assets/" is not among them
    And "dist/kdd-site.json" names the bundle of "dist/kdd.json" as its source
    And the static file server answers "/" with the site's "index.html"

  @QRY-001 @REQ-003
  Scenario: SCN-Site-002 — Searching sends no network request once the full bundle is loaded
    Given headless Chromium opened the site root and the search box is enabled
    And the worker downloaded the bundle named in "dist/kdd.json" in the background
    When I type "tombstone" into the search box
    Then the first result listed is "Tombstone" ("Entity:Tombstone"), within 1 second
    And the browser sent no request after the bundle download

  @QRY-002
  Scenario: SCN-Site-003 — A node page lists its edges grouped by type and leads on to the graph
    Given headless Chromium opened "#/node/Entity:Tombstone"
    Then the node page of "Entity:Tombstone" is shown with the heading "Tombstone"
    And the "Incoming edges" group "ENTITY_RULE" links to "BR:BR-MERGE-001"
    And the "Outgoing edges" group "EMITS" links to "EVT:EVT-KDDDocument-Deleted"
    When I follow the "EMITS" edge to "EVT:EVT-KDDDocument-Deleted"
    Then the node page of "EVT:EVT-KDDDocument-Deleted" is shown
    When I open its neighbourhood graph
    Then the graph is centred on "EVT:EVT-KDDDocument-Deleted" and draws "Entity:Tombstone"
    When I click "Entity:Tombstone" in the graph
    Then the graph is centred on "Entity:Tombstone"
    When I go to "#/node/Entity:Nope"
    Then the page reports "NODE_NOT_FOUND: Node not found: Entity:Nope" under "Cannot show this page"
    And the page logged no error
