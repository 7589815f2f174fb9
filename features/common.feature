Feature: Rules common to every operation
  Every call carries a subscription key, bodies travel as JSON under the
  documented media type or with no Content-Type at all, JSON answers say
  they are JSON, and users the implementation declares unauthorised are
  refused.

  @ALL.key
  Scenario Outline: <op> refuses a call without a subscription key
    Given the subscription key is left out
    When I make a typical call to <op>
    Then the call is refused for want of a subscription key

    # examples: one per operation all

  @ALL.key-unknown
  Scenario Outline: <op> refuses a subscription key that was never issued
    Given the subscription key is one that was never issued
    When I make a typical call to <op>
    Then the call is refused for want of a subscription key

    # examples: one per operation all

  @ALL.media-type
  Scenario Outline: <op> accepts its body as application/json-patch+json
    When I make a typical call to <op> with a body of type "application/json-patch+json"
    Then the body is not refused for its media type

    # examples: one per operation with-body

  @ALL.media-json
  Scenario Outline: <op> accepts its body as application/json
    When I make a typical call to <op> with a body of type "application/json"
    Then the body is not refused for its media type

    # examples: one per operation with-body

  @ALL.no-content-type
  Scenario Outline: <op> accepts its body without a Content-Type header
    When I make a typical call to <op> with a body and no Content-Type
    Then the body is not refused for its media type

    # examples: one per operation with-body

  @ALL.response-json
  Scenario Outline: <op> declares its JSON answer as JSON
    When I make a typical call to <op>
    Then a body in the answer is declared as JSON

    # examples: one per operation answering-json

  @ALL.forbidden
  Scenario: Every refusal the implementation declares is honoured
    Then every user the fixture forbids an operation is refused it with 403
