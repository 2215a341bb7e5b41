@UC-001 @BR-EXP-001 @BR-EXP-003 @BP-EXP-001
Feature: Expense claims
  As a consultant
  I want my travel costs back without chasing anyone
  So that I am not paying the company's bills

  Scenario: SCN-Exp-001 Receipt needed above 25 euros
    Given Marta adds a 38 € taxi line without a receipt
    When she submits the claim
    Then the claim is not sent
    And the line shows "Receipt needed"

  Scenario: SCN-Exp-002 Mileage above the yearly threshold
    Given Marta has claimed 4,900 km this year
    When she claims a 300 km trip to a client
    Then 100 km are paid at 0.35 € and 200 km at 0.20 €

  Scenario: SCN-Exp-003 Large claim needs finance
    Given Marta's manager has the default limit
    When Marta submits a claim of 1,480 €
    Then her manager approves first
    And the finance controller approves second

  @BR-EXP-002
  Scenario: SCN-Exp-004 Old receipt
    Given a hotel receipt dated 70 days ago
    When Marta adds it to a claim
    Then the line needs the finance controller's approval
