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

    @E1
    Examples:
      | op |
      | E1 |

    @E2
    Examples:
      | op |
      | E2 |

    @E3
    Examples:
      | op |
      | E3 |

    @E4
    Examples:
      | op |
      | E4 |

    @E5
    Examples:
      | op |
      | E5 |

    @E6
    Examples:
      | op |
      | E6 |

    @E7
    Examples:
      | op |
      | E7 |

    @E8
    Examples:
      | op |
      | E8 |

    @E9
    Examples:
      | op |
      | E9 |

    @E10
    Examples:
      | op |
      | E10 |

    @E11
    Examples:
      | op |
      | E11 |

    @E12
    Examples:
      | op |
      | E12 |

    @E13
    Examples:
      | op |
      | E13 |

    @E14
    Examples:
      | op |
      | E14 |

    @E15
    Examples:
      | op |
      | E15 |

    @E16
    Examples:
      | op |
      | E16 |

    @E17
    Examples:
      | op |
      | E17 |

    @E18
    Examples:
      | op |
      | E18 |

    @E19
    Examples:
      | op |
      | E19 |

    @E20
    Examples:
      | op |
      | E20 |

    @E21
    Examples:
      | op |
      | E21 |

    @GB
    Examples:
      | op |
      | GB |

    @ES
    Examples:
      | op |
      | ES |

    @NG
    Examples:
      | op |
      | NG |

    @NR
    Examples:
      | op |
      | NR |

    @QS
    Examples:
      | op |
      | QS |

  @ALL.key-unknown
  Scenario Outline: <op> refuses a subscription key that was never issued
    Given the subscription key is one that was never issued
    When I make a typical call to <op>
    Then the call is refused for want of a subscription key

    @E1
    Examples:
      | op |
      | E1 |

    @E2
    Examples:
      | op |
      | E2 |

    @E3
    Examples:
      | op |
      | E3 |

    @E4
    Examples:
      | op |
      | E4 |

    @E5
    Examples:
      | op |
      | E5 |

    @E6
    Examples:
      | op |
      | E6 |

    @E7
    Examples:
      | op |
      | E7 |

    @E8
    Examples:
      | op |
      | E8 |

    @E9
    Examples:
      | op |
      | E9 |

    @E10
    Examples:
      | op |
      | E10 |

    @E11
    Examples:
      | op |
      | E11 |

    @E12
    Examples:
      | op |
      | E12 |

    @E13
    Examples:
      | op |
      | E13 |

    @E14
    Examples:
      | op |
      | E14 |

    @E15
    Examples:
      | op |
      | E15 |

    @E16
    Examples:
      | op |
      | E16 |

    @E17
    Examples:
      | op |
      | E17 |

    @E18
    Examples:
      | op |
      | E18 |

    @E19
    Examples:
      | op |
      | E19 |

    @E20
    Examples:
      | op |
      | E20 |

    @E21
    Examples:
      | op |
      | E21 |

    @GB
    Examples:
      | op |
      | GB |

    @ES
    Examples:
      | op |
      | ES |

    @NG
    Examples:
      | op |
      | NG |

    @NR
    Examples:
      | op |
      | NR |

    @QS
    Examples:
      | op |
      | QS |

  @ALL.media-type
  Scenario Outline: <op> accepts its body as application/json-patch+json
    When I make a typical call to <op> with a body of type "application/json-patch+json"
    Then the body is not refused for its media type

    @E1
    Examples:
      | op |
      | E1 |

    @E2
    Examples:
      | op |
      | E2 |

    @E5
    Examples:
      | op |
      | E5 |

    @E7
    Examples:
      | op |
      | E7 |

    @E8
    Examples:
      | op |
      | E8 |

    @E14
    Examples:
      | op |
      | E14 |

    @E21
    Examples:
      | op |
      | E21 |

    @GB
    Examples:
      | op |
      | GB |

    @ES
    Examples:
      | op |
      | ES |

    @NR
    Examples:
      | op |
      | NR |

    @QS
    Examples:
      | op |
      | QS |

  @ALL.media-json
  Scenario Outline: <op> accepts its body as application/json
    When I make a typical call to <op> with a body of type "application/json"
    Then the body is not refused for its media type

    @E1
    Examples:
      | op |
      | E1 |

    @E2
    Examples:
      | op |
      | E2 |

    @E5
    Examples:
      | op |
      | E5 |

    @E7
    Examples:
      | op |
      | E7 |

    @E8
    Examples:
      | op |
      | E8 |

    @E14
    Examples:
      | op |
      | E14 |

    @E21
    Examples:
      | op |
      | E21 |

    @GB
    Examples:
      | op |
      | GB |

    @ES
    Examples:
      | op |
      | ES |

    @NR
    Examples:
      | op |
      | NR |

    @QS
    Examples:
      | op |
      | QS |

  @ALL.no-content-type
  Scenario Outline: <op> accepts its body without a Content-Type header
    When I make a typical call to <op> with a body and no Content-Type
    Then the body is not refused for its media type

    @E1
    Examples:
      | op |
      | E1 |

    @E2
    Examples:
      | op |
      | E2 |

    @E5
    Examples:
      | op |
      | E5 |

    @E7
    Examples:
      | op |
      | E7 |

    @E8
    Examples:
      | op |
      | E8 |

    @E14
    Examples:
      | op |
      | E14 |

    @E21
    Examples:
      | op |
      | E21 |

    @GB
    Examples:
      | op |
      | GB |

    @ES
    Examples:
      | op |
      | ES |

    @NR
    Examples:
      | op |
      | NR |

    @QS
    Examples:
      | op |
      | QS |

  @ALL.response-json
  Scenario Outline: <op> declares its JSON answer as JSON
    When I make a typical call to <op>
    Then a body in the answer is declared as JSON

    @E1
    Examples:
      | op |
      | E1 |

    @E2
    Examples:
      | op |
      | E2 |

    @E3
    Examples:
      | op |
      | E3 |

    @E4
    Examples:
      | op |
      | E4 |

    @E5
    Examples:
      | op |
      | E5 |

    @E6
    Examples:
      | op |
      | E6 |

    @E7
    Examples:
      | op |
      | E7 |

    @E9
    Examples:
      | op |
      | E9 |

    @E10
    Examples:
      | op |
      | E10 |

    @E11
    Examples:
      | op |
      | E11 |

    @E12
    Examples:
      | op |
      | E12 |

    @E13
    Examples:
      | op |
      | E13 |

    @E14
    Examples:
      | op |
      | E14 |

    @E15
    Examples:
      | op |
      | E15 |

    @E16
    Examples:
      | op |
      | E16 |

    @E17
    Examples:
      | op |
      | E17 |

    @E18
    Examples:
      | op |
      | E18 |

    @E19
    Examples:
      | op |
      | E19 |

    @E20
    Examples:
      | op |
      | E20 |

    @E21
    Examples:
      | op |
      | E21 |

    @GB
    Examples:
      | op |
      | GB |

    @ES
    Examples:
      | op |
      | ES |

    @NG
    Examples:
      | op |
      | NG |

    @NR
    Examples:
      | op |
      | NR |

    @QS
    Examples:
      | op |
      | QS |

  @ALL.forbidden
  Scenario: Every refusal the implementation declares is honoured
    Then every user the fixture forbids an operation is refused it with 403
