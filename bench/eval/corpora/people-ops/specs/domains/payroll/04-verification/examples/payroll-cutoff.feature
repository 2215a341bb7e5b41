@UC-001 @BR-PAY-001 @BR-PAY-002 @REQ-001
Feature: Payroll cut-off and deductions
  As an employee
  I want changes to my pay to land in a predictable month
  So that my payslip holds no surprises

  Scenario: SCN-Pay-001 Change before the cut-off
    Given it is 15 July at 16:30
    When People Ops saves Bram's salary increase
    Then the increase is paid on 25 July

  Scenario: SCN-Pay-002 Change after the cut-off
    Given it is 15 July at 17:05
    When People Ops saves Bram's salary increase
    Then the change is labelled "next payroll: August"
    And the August payslip includes July's arrears

  Scenario: SCN-Pay-003 Unpaid leave
    Given Bram earns 52,000 € a year
    And he took 3 days of unpaid leave approved on 2 July
    When the July run is calculated
    Then his payslip shows an unpaid leave deduction of 600 €

  @BR-PAY-003
  Scenario: SCN-Pay-004 Large underpayment
    Given Bram's July payslip missed a 400 € allowance
    When payroll confirms the error on 27 July
    Then an off-cycle payment is scheduled by 30 July
