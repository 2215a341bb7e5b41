@BP-001 @BR-002
Feature: Missed appointments and late cancellations
  As the practice manager
  I want repeat no-shows to pay a fee
  So that booked time is not wasted

  Scenario: SCN-NoShow-001 First no-show only warns
    Given owner Carla has no no-show in the last 12 months
    And her cat Miso is booked at 11:00
    When it is 11:15 and Miso has not been checked in
    Then the appointment is closed as no-show
    And Carla receives a warning text
    And no fee is charged

  Scenario: SCN-NoShow-002 Second no-show costs 25 euros
    Given owner Carla had one no-show in March
    When her next appointment in June is closed as no-show
    Then a fee of 25 € is added to her account

  @UC-002
  Scenario: SCN-NoShow-003 Late cancellation
    Given owner Dan has a consultation tomorrow at 09:00
    When Dan cancels today at 20:00
    Then a fee of 15 € is added to his next invoice
