@UC-002 @BR-001 @REQ-001
Feature: Final pay of a leaver
  As a leaver
  I want my last payslip to include everything I am owed
  So that I do not have to chase the company after I go

  Scenario: SCN-Leaver-001 Untaken leave paid out
    Given Joana earns 52,000 € a year
    And her projected balance on her last working day is 4.5 days
    When her final pay is calculated
    Then 900 € for untaken leave is added

  Scenario: SCN-Leaver-002 Borrowed leave deducted
    Given Joana's projected balance on her last working day is -2 days
    When her final pay is calculated
    Then 400 € is deducted

  Scenario: SCN-Leaver-003 Last day after the cut-off
    Given Joana's last working day is 28 May
    When the departure is registered
    Then her final pay is scheduled off-cycle by 4 June

  @BR-002
  Scenario: SCN-Leaver-004 Accounts closed at the end of the last day
    Given Joana's last working day is 28 May
    When it is 28 May at 18:00 in Lisbon
    Then her accounts and company card are disabled
