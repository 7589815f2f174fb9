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

    # examples: one per operation without-read-back

  # Before the features that use the records up: E14's read-back names a
  # media E14.gone deletes later.
  @ALL.key @destructive
  Scenario Outline: <op> without a subscription key is refused and changes nothing
    When I try to change the record of <op> without a subscription key
    Then the write was refused for want of a subscription key, and the record reads as it was

    # examples: one per operation with-read-back

  @ALL.key-unknown
  Scenario Outline: <op> refuses a subscription key that was never issued
    Given the subscription key is one that was never issued
    When I make a typical call to <op>
    Then the call is refused for want of a subscription key

    # examples: one per operation all

  @ALL.unknown-id
  Scenario Outline: <op> makes up nothing for an id that names no record
    When I make a typical call to <op> naming a record that does not exist
    Then no record is made up for the id that names none

    # examples: one per operation naming-a-record-without-404

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

  @ALL.member-case
  Scenario Outline: <op> does not read <member> from a body spelling it <wrong>
    When I call <op> with body:
      """
      <body>
      """
    Then the call is refused with a client error

    @E1
    Examples: validate a one-time password
      | op | member | wrong  | body                                                |
      | E1 | userid | userId | {"userId": "{secondFactor.userid}", "otp": "{otp}"} |

    @E7
    Examples: add a default attendance
      | op | member     | wrong      | body                                           |
      | E7 | resourceID | resourceid | {"resourceid": "{records.attendanceResource}"} |

    @E8
    Examples: delete attendances
      | op | member     | wrong      | body                                                                |
      | E8 | resourceID | resourceId | {"resourceId": "{records.attendanceResource}", "iDs": ["{absent}"]} |

    @NR
    Examples: update a notification's read status
      | op | member | wrong | body                                          |
      | NR | read   | Read  | {"id": {records.notification.id}, "Read": 10} |

    @QS
    Examples: update a quiz section
      | op | member | wrong | body                                                      |
      | QS | name   | Name  | {"id": "{records.quizSection.id}", "Name": "Section one"} |

  @GB @ALL.member-case
  Scenario: GB does not read iD_Weightage from a body spelling it iD_weightage
    When I call GB for "{records.gradebookModule.id}" with body:
      """
      {"iD_weightage": [], "gradingSchema": [{"letterGrade": "A", "maxMark": 100}]}
      """
    Then the call is refused with a client error

  @E2 @ALL.member-case
  Scenario: E2 does not read transactionId from a body spelling it transactionID
    Given I am "{secondFactor.approvingUser}"
    When I call E3
    Then the status is 200
    When I save the field "transactionId" as "tx"
    And I call E2 with body:
      """
      {"transactionID": "{saved.tx}"}
      """
    Then the call is refused with a client error

  @E21 @ALL.member-case @destructive
  Scenario: E21 does not read iDs from a body spelling it ids
    When I call E21 with body:
      """
      {"iDs": {records.lectureSessions}, "publish": false}
      """
    And I call E21 with body:
      """
      {"ids": {records.lectureSessions}, "publish": true}
      """
    Then the call is refused with a client error, or the body is 0
