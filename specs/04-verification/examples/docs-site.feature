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
    And the JavaScript under "dist/kdd-site-assets/" totals at most 300 KB gzipped
    And "dist/kdd-site.json" names the bundle of "dist/kdd.json" as its source
    And the static file server answers "/" with the site's "index.html"

  @QRY-001 @REQ-003
  Scenario: SCN-Site-002 — Searching sends no network request after the bundle is loaded
    Given a headless browser opened the site root and the search box is enabled
    When I type "tombstone" in the search box
    Then within 1 second the first result is "Tombstone"
    And the browser made no network request after the bundle download

  @QRY-002
  Scenario: SCN-Site-003 — A node page lists relations grouped by edge type
    When I open "#/node/Entity:Tombstone"
    Then the page title is "Tombstone"
    And the relations panel shows "ENTITY_RULE ←" with "BR-MERGE-001"
    And the relations panel shows "EMITS →" with "EVT-KDDDocument-Deleted"
    When I open "#/node/Entity:Nope"
    Then the page shows "Entity:Nope"
