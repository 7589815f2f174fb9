Feature: Web lecture sessions
  Staff publish or unpublish lecture sessions in one call.

  @E21 @E21.count @destructive
  Scenario Outline: Setting publish to <value> answers the number of sessions named
    When I call E21 with body:
      """
      {"iDs": {records.lectureSessions}, "publish": <opposite>}
      """
    And I call E21 with body:
      """
      {"iDs": {records.lectureSessions}, "publish": <value>}
      """
    Then the status is 200
    And the body is {records.lectureSessions.#}

    Examples:
      | value | opposite |
      | true  | false    |
      | false | true     |

  @E21 @E21.count-unknown @destructive
  Scenario: Sessions that do not exist are not counted
    When I call E21 with body:
      """
      {"iDs": ["{records.lectureSessions.0}"], "publish": false}
      """
    And I call E21 with body:
      """
      {"iDs": ["{records.lectureSessions.0}", "{absent}"], "publish": true}
      """
    Then the status is 200
    And the body is 1

  @E21 @E21.count-distinct @destructive
  Scenario: A session named twice is counted once
    When I call E21 with body:
      """
      {"iDs": ["{records.lectureSessions.0}"], "publish": false}
      """
    And I call E21 with body:
      """
      {"iDs": ["{records.lectureSessions.0}", "{records.lectureSessions.0}"], "publish": true}
      """
    Then the status is 200
    And the body is 1

  @E21 @E21.400.uuid
  Scenario: Publishing sessions named by a malformed id is refused
    When I call E21 with body:
      """
      {"iDs": ["not-a-uuid"], "publish": true}
      """
    Then the status is 400

  @E21 @E21.400.json
  Scenario: Publishing sessions with a broken body is refused
    When I call E21 with body:
      """
      {"iDs": [], "publish": tru
      """
    Then the status is 400

  @E21 @E21.400.type
  Scenario: Publishing sessions with publish as a string is refused
    When I call E21 with body:
      """
      {"iDs": ["{records.lectureSessions.0}"], "publish": "yes"}
      """
    Then the status is 400
