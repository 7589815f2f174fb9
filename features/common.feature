Feature: Rules common to every operation
  Every call carries a subscription key, bodies travel as JSON under the
  documented media type, and users the implementation declares unauthorised
  are refused.

  @ALL.key
  Scenario Outline: <op> refuses a call without a subscription key
    Given the subscription key is left out
    When I make a typical call to <op>
    Then the call is refused for want of a subscription key

    Examples:
      | op  |
      | E1  |
      | E2  |
      | E3  |
      | E4  |
      | E5  |
      | E6  |
      | E7  |
      | E8  |
      | E9  |
      | E10 |
      | E11 |
      | E12 |
      | E13 |
      | E14 |
      | E15 |
      | E16 |
      | E17 |
      | E18 |
      | E19 |
      | E20 |
      | E21 |
      | GB  |
      | ES  |
      | NG  |
      | NR  |
      | QS  |

  @ALL.media-type
  Scenario Outline: <op> accepts its body as application/json-patch+json
    When I make a typical call to <op> with a body of type "application/json-patch+json"
    Then the body is not refused for its media type

    Examples:
      | op  |
      | E1  |
      | E2  |
      | E5  |
      | E7  |
      | E8  |
      | E14 |
      | E21 |
      | GB  |
      | ES  |
      | NR  |
      | QS  |

  @ALL.media-json
  Scenario Outline: <op> accepts its body as application/json
    When I make a typical call to <op> with a body of type "application/json"
    Then the body is not refused for its media type

    Examples:
      | op  |
      | E1  |
      | E2  |
      | E5  |
      | E7  |
      | E8  |
      | E14 |
      | E21 |
      | GB  |
      | ES  |
      | NR  |
      | QS  |

  @ALL.forbidden
  Scenario: Every refusal the implementation declares is honoured
    Then every user the fixture forbids an operation is refused it with 403
