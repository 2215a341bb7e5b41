@BR-001 @UC-001
Feature: No double booking of a vet
  As a pet owner
  I want the time I booked to be mine alone
  So that I do not wait for a vet who is seeing someone else

  Background:
    Given Dr Haas works at Riverside from 09:00 to 13:00
    And room RIV-2 supports consultations and vaccinations

  Scenario: SCN-Overlap-001 Two owners race for the same time
    Given owner Ana holds 09:15 with Dr Haas
    When owner Ben tries to book 09:15 with Dr Haas
    Then Ben is refused with "SLOT_TAKEN"
    And Ben sees the three nearest free times

  Scenario: SCN-Overlap-002 Touching appointments are allowed
    Given Dr Haas has a consultation from 09:00 to 09:15
    When owner Ben books a vaccination at 09:15
    Then the booking is confirmed

  Scenario: SCN-Overlap-003 A dental check blocks two slots
    Given Dr Haas has a dental check at 10:00
    When owner Ana tries to book 10:15 with Dr Haas
    Then Ana is refused with "SLOT_TAKEN"
