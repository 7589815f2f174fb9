Feature: Notifications
  A user reads a notification by its group and marks it read (11) or
  unread (10).

  @NG @NG.200
  Scenario: Reading a notification by its group
    When I call NG for "{records.notification.groupId}"
    Then the status is 200
    And the body is an object


  @NG @NG.ancestor
  Scenario: populate=ancestor fills the ancestors of the notification's target
    When I call NG for "{records.notification.groupId}" with:
      | populate | ancestor |
    Then the status is 200
    And the field "ancestor" is an array

  @NG @NG.ancestor-self
  Scenario: The ancestors of a notification's target leave out the target itself
    When I call NG for "{records.notification.groupId}" with:
      | populate | ancestor |
    Then the status is 200
    And no entry of "ancestor" has "id" equal to the field "targetID"

  @NG @NG.populate-unknown
  Scenario: Reading a notification refuses an unknown populate entity
    When I call NG for "{records.notification.groupId}" with:
      | populate | Nonsense |
    Then the status is 400

  @NG @NG.400.uuid
  Scenario: Reading a notification by a malformed group id is refused
    When I call NG for "not-a-uuid"
    Then the status is 400

  @NR @NR.read @destructive
  Scenario: Marking an unread notification read returns it read, and read it stays
    Given I make the notification unread
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read": 11}
      """
    Then the status is 200
    And the field "id" is {records.notification.id} where present
    And the field "notifyStatus" is 11 where present
    And I keep the answer as "updated"
    When I read the notification back
    Then the status is 200
    And the field "notifyStatus" is 11
    And the notification saved as "updated" agrees with this one in every member both carry that a read update does not set

  @NR @NR.unread @destructive
  Scenario: Marking a read notification unread returns it unread, and unread it stays
    Given I make the notification read
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read": 10}
      """
    Then the status is 200
    And the field "id" is {records.notification.id} where present
    And the field "notifyStatus" is 10 where present
    And I keep the answer as "updated"
    When I read the notification back
    Then the status is 200
    And the field "notifyStatus" is 10
    And the notification saved as "updated" agrees with this one in every member both carry that a read update does not set

  @NR @NR.same @destructive
  Scenario Outline: Marking a<n> <state> notification <state> again leaves it <state>
    Given I make the notification <state>
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read": <read>}
      """
    Then the status is 200
    And the field "notifyStatus" is <read> where present
    When I read the notification back
    Then the status is 200
    And the field "notifyStatus" is <read>

    Examples:
      | n | state  | read |
      |   | read   | 11   |
      | n | unread | 10   |

  @NR @NR.range
  Scenario Outline: A read value of <read> is refused
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read": <read>}
      """
    Then the status is 400

    Examples:
      | read |
      | 9    |
      | 12   |
      | -10  |

  @NR @NR.range-unchanged @destructive
  Scenario: A refused read value of 12 leaves an unread notification unread
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read": 10}
      """
    Then the status is 200
    And the field "notifyStatus" is 10 where present
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read": 12}
      """
    Then the status is 400
    When I read the notification back
    Then the status is 200
    And the field "notifyStatus" is 10

  @NR @NR.400.required
  Scenario Outline: Marking a notification without <field> is refused
    When I call NR with body:
      """
      <body>
      """
    Then the status is 400

    Examples:
      | field | body                                 |
      | id    | {"read": 11}                         |
      | read  | {"id": {records.notification.id}}    |

  @NR @NR.400.json
  Scenario: Marking a notification with a broken body is refused
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read":
      """
    Then the status is 400

  @NR @NR.400.type
  Scenario: Marking a notification with read as a string is refused
    When I call NR with body:
      """
      {"id": {records.notification.id}, "read": "11"}
      """
    Then the status is 400
