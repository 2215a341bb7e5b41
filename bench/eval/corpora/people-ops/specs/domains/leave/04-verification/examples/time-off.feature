@UC-001 @REQ-001 @BR-LEAVE-001 @BP-LEAVE-001
Feature: Booking time off
  As an employee
  I want to ask for holidays and get a quick answer
  So that I can book my trip

  Background:
    Given Aoife works full time in the Dublin office
    And her balance shows 12 days available

  Scenario: SCN-Leave-001 A week off with enough notice
    Given today is Monday 1 June
    When Aoife asks for 6 to 10 July
    Then the request costs 5 days
    And it waits for her manager without a short-notice flag

  Scenario: SCN-Leave-002 Short notice
    Given today is Wednesday 3 June
    When Aoife asks for 8 to 12 June
    Then the request is flagged "short notice"
    And her manager must accept the short notice to approve it

  Scenario: SCN-Leave-003 Public holiday inside the range
    When Aoife asks for Monday 3 to Friday 7 August
    Then the request costs 4 days because 3 August is a public holiday in Dublin

  Scenario: SCN-Leave-004 Team cover
    Given 3 of the 10 people in Aoife's team are away on 15 July
    When her manager approves Aoife's request for 15 July
    Then the manager is asked for a reason

  @BR-LEAVE-003
  Scenario: SCN-Leave-005 Carry-over at year end
    Given Aoife has 7 days left on 31 December
    When the year-end run finishes
    Then 5 days move to next year until 31 March
    And 2 days lapse
