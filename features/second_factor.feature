Feature: Second factor
  A user confirms their identity with a one-time password, or by approving
  a push request on their phone whose outcome the caller then polls.

  @E1 @E1.200
  Scenario: A valid one-time password is confirmed
    When I call E1 with body:
      """
      {"userid": "{secondFactor.userid}", "otp": "{otp}"}
      """
    Then the status is 200
    And the field "status" is "0000"

  @E1 @E1.reject
  Scenario: A wrong one-time password is not confirmed
    When I call E1 with body:
      """
      {"userid": "{secondFactor.userid}", "otp": "not-a-valid-code"}
      """
    Then the one-time password is not confirmed

  @E1 @E1.reject
  Scenario: A well-formed one-time password that is wrong is not confirmed
    When I call E1 with body:
      """
      {"userid": "{secondFactor.userid}", "otp": "{wrongOtp}"}
      """
    Then the one-time password is not confirmed

  @E1 @E1.user
  Scenario: A code valid for one user confirms no other
    When I call E1 with body:
      """
      {"userid": "no-such-user-{absent}", "otp": "{otp}"}
      """
    Then the one-time password is not confirmed

  @E1 @E1.404
  Scenario: A one-time password for an unknown user is refused as not found
    When I call E1 with body:
      """
      {"userid": "no-such-user-{absent}", "otp": "123456"}
      """
    Then the status is 404

  @E1 @E1.400.required
  Scenario Outline: A one-time password check missing <field> is refused
    When I call E1 with body:
      """
      <body>
      """
    Then the status is 400

    Examples:
      | field  | body                                  |
      | userid | {"otp": "123456"}                     |
      | otp    | {"userid": "{secondFactor.userid}"}   |

  @E1 @E1.400.json
  Scenario: A one-time password check with a broken body is refused
    When I call E1 with body:
      """
      {"userid": "{secondFactor.userid}", "otp":
      """
    Then the status is 400

  @E1 @E1.400.type
  Scenario: A one-time password check with a numeric userid is refused
    When I call E1 with body:
      """
      {"userid": 12345, "otp": "123456"}
      """
    Then the status is 400

  @E3 @E3.200
  Scenario: A push request opens a transaction
    When I call E3
    Then the status is 200
    And the body is an object
    And the field "transactionId" is a non-empty string where present

  @E2 @E2.approve
  Scenario: A push the user approves polls as success
    Given I am "{secondFactor.approvingUser}"
    When I call E3
    Then the status is 200
    When I save the field "transactionId" as "tx"
    And I poll the push transaction "{saved.tx}"
    Then the status is 200
    And the field "status" is "0000"

  @E2 @E2.deny
  Scenario: A push the user denies polls as denied
    Given I am "{secondFactor.denyingUser}"
    When I call E3
    Then the status is 200
    When I save the field "transactionId" as "tx"
    And I poll the push transaction "{saved.tx}"
    Then the status is 200
    And the field "status" is "7002"

  @E2 @E2.transaction
  Scenario: A poll answers for the transaction it names
    Given I am "{secondFactor.approvingUser}"
    When I call E3
    Then the status is 200
    When I save the field "transactionId" as "tx"
    And I poll the push transaction "{saved.tx}"
    Then the status is 200
    And the field "transactionId" is "{saved.tx}"

  @E2 @E2.404
  Scenario: Polling a transaction that was never issued is refused as not found
    When I call E2 with body:
      """
      {"transactionId": "{absent}"}
      """
    Then the status is 404

  @E2 @E2.400.required
  Scenario: Polling without a transaction id is refused
    When I call E2 with body:
      """
      {}
      """
    Then the status is 400

  @E2 @E2.400.json
  Scenario: Polling with a broken body is refused
    When I call E2 with body:
      """
      {"transactionId": 
      """
    Then the status is 400

  @E4 @E4.200 @destructive
  Scenario: A Super Admin synchronises the faculty list
    Given I am "admin"
    When I call E4
    Then the status is 200
    And the body is an array

  @E4 @E4.403
  Scenario Outline: A <user> may not synchronise the faculty list
    Given I am "<user>"
    When I call E4
    Then the status is 403

    Examples:
      | user    |
      | owner   |
      | staff   |
      | student |
