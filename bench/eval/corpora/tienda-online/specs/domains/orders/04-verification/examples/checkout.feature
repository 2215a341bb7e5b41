@UC-001 @BP-ORDER-001 @REQ-001
Feature: Checkout
  As a customer
  I want to pay only for what can be sent to me
  So that I never wait for a product that does not exist

  Scenario: SCN-Checkout-001 Minimum order
    Given my cart holds products worth 12 €
    When I press "Checkout"
    Then I see "Add products worth at least 15 €"

  Scenario: SCN-Checkout-002 Stock held while paying
    Given the last grinder is in my cart
    When I start checkout
    Then the grinder is held for me for 30 minutes
    And another customer sees it as out of stock

  Scenario: SCN-Checkout-003 Three failed payments
    Given my order is waiting for payment
    When my card is declined three times
    Then the order is cancelled
    And the grinder is back on sale
